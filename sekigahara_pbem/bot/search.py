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
import time
from collections.abc import Callable

from ..rules import rng
from ..rules.components import Components
from ..rules.engine import apply
from ..rules.shadow import shadow_state
from ..rules.state import DEFAULT_OPTIONS
from ..rules.vocab import MOVEMENT, Malformed, RuleViolation
from .chain import turn_file
from .heuristic import HeuristicPlayer
from .rollout import rollout, value

WIDTH = 4  # candidates searched per decision
HORIZON = 2  # movement phases begun before a rollout is scored
FILE_STEPS = 4  # a turn file may take this many decisions' budgets in all
MIN_ROUNDS = 2  # fewer rounds than this cannot overrule the heuristic
MIN_GAIN = 0.25  # points: a smaller expected gain is not worth leaving the heuristic for
NOISE = 1.0  # standard errors the gain must exceed


class SearchPlayer:
    """Answers like the heuristic player (one turn file per packet, played on its shadow
    while nothing unforeseeable happens), but chooses each action by search.

    `budget` is the seconds of processor time (`clock`) per decision, a turn file taking
    at most FILE_STEPS budgets; `rounds` bounds the rounds per decision. With `rounds` and
    no budget, the same packet and seed always get the same answer; a time budget makes
    the answer depend on how many rounds the machine fits in it. Movement decisions are
    the heuristic's unless `movement`: a round of four movement candidates takes longer
    than hard's half second (bench/rollout_speed.py), and one or two rounds overruled the
    heuristic on noise (hard won 4 of 12 games against normal so)."""

    def __init__(
        self,
        comp: Components,
        game_options: dict,
        seed: str = "search",
        budget: float | None = 1.0,
        rounds: int | None = None,
        width: int = WIDTH,
        horizon: int = HORIZON,
        clock: Callable[[], float] = time.process_time,
        movement: bool = False,
    ):
        if budget is None and rounds is None:
            raise ValueError("the search needs a time budget or a number of rounds")
        self.comp = comp
        self.game_options = {**DEFAULT_OPTIONS, **game_options}
        self.seed = seed
        self.budget = budget
        self.rounds = rounds
        self.width = width
        self.horizon = horizon
        self.clock = clock
        self.movement = movement
        self.policy = HeuristicPlayer(comp, game_options, seed)

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        """The actions of one turn file answering the decision `v` asks for."""
        if not offered:
            return []
        file_end = None if self.budget is None else self.clock() + FILE_STEPS * self.budget

        def choose(v: dict, offered: list[dict], shadow: dict) -> dict:
            until = None
            if file_end is not None:
                share = (file_end - self.clock()) / _steps_left(v)
                until = self.clock() + min(self.budget, share)
            return self.choose(v, offered, shadow, until)

        return turn_file(self.comp, self.game_options, v, offered, choose)

    def choose(self, v: dict, offered: list[dict], shadow: dict, until: float | None) -> dict:
        """The candidate the rounds find best, or the heuristic's own choice (the first)
        when the rounds cannot tell (module docstring). `until` is the clock's deadline."""
        candidates = self.policy.ranked(v, offered, shadow, self.width)
        if len(candidates) == 1 or (v["step"] == MOVEMENT and not self.movement):
            return candidates[0]
        text = json.dumps([self.seed, v, candidates], sort_keys=True)
        chooser = rng.new(hashlib.sha256(text.encode()).hexdigest())
        results: list[list[float]] = []  # per round, the value of each candidate
        while self.rounds is None or len(results) < self.rounds:
            row = self._round(v, candidates, chooser, until)
            if row is None:
                break
            results.append(row)
        return candidates[_pick(results)]

    def _round(
        self, v: dict, candidates: list[dict], chooser: dict, until: float | None
    ) -> list[float] | None:
        """Each candidate's value on one sampled state; None if the clock ran out first (a
        round cut short is not counted: its candidates would not share their luck)."""
        side = v["own"]["side"]
        sample = shadow_state(self.comp, v, self.game_options, chooser)
        row = []
        for action in candidates:
            if until is not None and self.clock() >= until:
                return None
            try:
                start, _ = apply(sample, self.comp, side, action)
            except (RuleViolation, Malformed):  # cannot happen with listed options
                row.append(-math.inf)
                continue
            end = rollout(self.comp, start, self.policy, self.horizon)
            row.append(value(self.comp, end, side))
        return row


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
