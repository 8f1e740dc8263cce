"""The search player: determinized Monte Carlo search over its information set.

It sees what its packet shows and nothing more. For each decision it asks the heuristic
player for its few best candidates (`width`; a movement step lists hundreds of options,
most of them plainly poor), then runs rounds until its time (or round) budget is spent.
A round samples one full state the side cannot tell from the real one (the enemy's hidden
blocks, both hands and draw piles, the game's generator: rules/shadow.py with a seeded
chooser), applies every candidate to it, plays each on with the heuristic for both sides
for a few movement phases (bot/rollout.py) and scores the outcome in points.

This is information-set Monte Carlo tree search kept to the root: statistics are gathered
per candidate over fresh determinizations, never per sampled world, so nothing it learns
depends on a guess about hidden pieces. A deeper tree would need far more than the tens of
rollouts a second allows in a game this long. All candidates of a round share one sample
and one generator (common random numbers), so they are compared on the same luck, and the
heuristic's own choice is kept unless another beats it, paired round by round, by more
than the noise of those rounds.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable
from typing import NamedTuple

from .. import second_process
from ..rules.components import Components
from ..rules.state import DEFAULT_OPTIONS
from ..rules.state_types import State
from ..rules.vocab import MOVEMENT
from .chain import turn_file
from .heuristic import HeuristicPlayer
from .rounds import Rollouts, SecondProcess, play_round

WIDTH = 4  # candidates searched per decision
HORIZON = 2  # movement phases begun before a rollout is scored
FILE_STEPS = 4  # a turn file may take this many decisions' budgets in all
MIN_ROUNDS = 2  # fewer rounds than this cannot overrule the heuristic
MIN_GAIN = 0.25  # points: a smaller expected gain is not worth leaving the heuristic for
NOISE = 1.0  # standard errors the gain must exceed


class Shape(NamedTuple):
    """How wide and deep the search looks: the candidates a decision weighs (`width`),
    the movement phases begun before a rollout is scored (`horizon`), a bound on the
    rounds a decision plays (`rounds`; None: as many as the budget fits), and how many
    budgets a movement decision, and a turn file that begins in movement, may take
    (`movement_scale`, for the bench's series: at 1.5 hard's movement decisions got
    twice the rounds and it beat normal no more often, so the levels keep 1; docs/bot.md,
    "Budget")."""

    width: int = WIDTH
    horizon: int = HORIZON
    rounds: int | None = None
    movement_scale: float = 1.0


class SearchPlayer:
    """Answers like the heuristic player (one turn file per packet, played on its shadow
    while nothing unforeseeable happens), but chooses each action by search.

    `budget` is the seconds per decision on `clock`, a turn file taking at most
    FILE_STEPS budgets; `shape.rounds` bounds the rounds per decision. With them and no
    budget, the same packet and seed always get the same answer, in one process or two
    (each round's sample is drawn from the decision and the round's index alone); a time
    budget makes the answer depend on how many rounds the machine fits in it. With
    `workers` 2 (and two cores) a second process plays the odd rounds while this one
    plays the even ones (bot/rounds.py), and the clock is the wall's (time.monotonic:
    what the player waits for, whatever each process spends); with one, it is this
    process's processor time. The second process loads the packaged component set, so a
    player of any other set searches in one process. Call `close()` when done (or let
    the player be collected). Movement decisions are searched too unless told
    `movement=False`: in one process at hard's old half second they overruled the
    heuristic on noise (hard won 4 of 12 games against normal so), in two at 0.7 s of
    the wall's clock hard won more with them searched than without (docs/bot.md,
    "Both cores")."""

    def __init__(
        self,
        comp: Components,
        game_options: dict,
        seed: str = "search",
        budget: float | None = 1.0,
        shape: Shape = Shape(),  # noqa: B008 - a tuple: one shared default is safe
        clock: Callable[[], float] | None = None,
        movement: bool = True,
        workers: int = 2,
    ):
        if budget is None and shape.rounds is None:
            raise ValueError("the search needs a time budget or a number of rounds")
        if workers not in (1, 2):
            raise ValueError(f"the search plays in one process or two, not {workers}")
        self.comp = comp
        self.game_options = {**DEFAULT_OPTIONS, **game_options}
        self.seed = seed
        self.budget = budget
        self.rounds, self.width, self.horizon = shape.rounds, shape.width, shape.horizon
        self.movement_scale = shape.movement_scale
        self.movement = movement
        two = (os.cpu_count() or 1) >= 2 and second_process.possible() and _packaged(comp)
        self.workers = workers if two else 1
        default = time.monotonic if self.workers == 2 else time.process_time
        self.clock = clock or default
        # the heuristic that plays both sides on in the rollouts, shown no events (a
        # belief is one side's, over the real game), and the one that ranks our
        # candidates with the belief the events shown to `observe` give
        self.policy = HeuristicPlayer(comp, game_options, seed)
        self.ranker = HeuristicPlayer(comp, game_options, seed)
        self.rollouts = Rollouts(comp, self.game_options, self.policy, shape.horizon)
        self.searched: list[tuple[str, int]] = []  # per decision searched: its step, rounds
        self._second: SecondProcess | None = None

    def observe(self, events: list[dict]) -> None:
        """Events as this side saw them: its candidates are ranked, and its rounds'
        worlds sampled, by the belief over the enemy's blocks they give (bot/belief.py)."""
        self.ranker.observe(events)

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        """The actions of one turn file answering the decision `v` asks for."""
        if not offered:
            return []
        # the file's deadline with the budget it was set by: none without a time budget
        limit = None
        if self.budget is not None:
            limit = (self.clock() + FILE_STEPS * self._scaled(v, self.budget), self.budget)
        self.ranker.fit(v)  # within the budget: a player shown events thinks no longer

        def choose(v: dict, offered: list[dict], shadow: State) -> dict:
            until = None
            if limit is not None:
                file_end, budget = limit
                share = (file_end - self.clock()) / _steps_left(v)
                until = self.clock() + min(self._scaled(v, budget), share)
            return self.choose(v, offered, shadow, until)

        return turn_file(self.comp, self.game_options, v, offered, choose)

    def _scaled(self, v: dict, budget: float) -> float:
        """The seconds a decision of `v`'s step may take (`Shape.movement_scale`)."""
        return budget * (self.movement_scale if v["step"] == MOVEMENT else 1.0)

    def choose(self, v: dict, offered: list[dict], shadow: State, until: float | None) -> dict:
        """The candidate the rounds find best, or the heuristic's own choice (the first)
        when the rounds cannot tell (module docstring). `until` is the clock's deadline."""
        candidates = self.ranker.ranked(v, offered, shadow, self.width)
        if len(candidates) == 1 or (v["step"] == MOVEMENT and not self.movement):
            return candidates[0]
        members = self.ranker.members
        text = json.dumps([self.seed, v, candidates], sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        second = self._started()
        if second is not None:
            second.begin(v, candidates, digest, self.rounds, members)

        def stopped() -> bool:
            return until is not None and self.clock() >= until

        rows: dict[int, list[float]] = {}  # per round, the value of each candidate
        k, step = 0, 1 if second is None else 2
        while self.rounds is None or k < self.rounds:
            row = play_round(self.rollouts, v, candidates, digest, k, stopped, members)
            if row is None:
                break
            rows[k] = row
            k += step
        if second is not None:
            rows.update(second.finish(stop=until is not None))
        self.searched.append((v["step"], len(rows)))
        return candidates[_pick([rows[k] for k in sorted(rows)])]

    def _started(self) -> SecondProcess | None:
        """The second process, started at the first decision searched; None in one."""
        if self.workers == 2 and self._second is None:
            self._second = SecondProcess(self.game_options, self.seed, self.horizon)
        return self._second

    def close(self) -> None:
        """Stop the second process, if one was started; the player may still be used
        (a new one is started when needed)."""
        if self._second is not None:
            self._second.close()
            self._second = None


def _packaged(comp: Components) -> bool:
    """Whether `comp` is the packaged component set, which the second process loads."""
    from ..protocol.component_files import load_components

    return comp == load_components()


def _pick(results: list[list[float]]) -> int:
    """The index of the candidate to play: 0 (the heuristic's choice) unless another one's
    gain over it, paired round by round, is above MIN_GAIN and NOISE standard errors."""
    n = len(results)
    if n < MIN_ROUNDS:
        return 0
    best, best_gain = 0, 0.0
    for i in range(1, len(results[0])):
        gains = [row[i] - row[0] for row in results]
        if any(math.isinf(g) or math.isnan(g) for g in gains):
            continue
        mean = sum(gains) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)
        if mean > max(MIN_GAIN, NOISE * spread) and mean > best_gain:
            best, best_gain = i, mean
    return best


def _steps_left(v: dict) -> int:
    """How many decisions the rest of this turn file may hold: in a movement phase, one
    per move still allowed and the end (six for total movement); otherwise one."""
    phase = v["phase"]
    if v["step"] != "movement" or phase is None:
        return 1
    if phase["level"] is None:
        return FILE_STEPS
    left = phase["moves_left"]
    return 6 if left is None else left + 1
