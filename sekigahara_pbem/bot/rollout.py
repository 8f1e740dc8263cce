"""Rollouts for the search player (bot/search.py): a sampled full state played on by the
heuristic player for both sides, for a few movement phases, then scored in points.

Random playouts are hopeless in a game of some 250 decisions, and the heuristic is both a
sound default policy and the opponent the search is measured against. A rollout stops
after a horizon of movement phases (the decision's own phase, the enemy's answer...),
where a score in points (2.2) says more than the end of the game could: castles and
resources held, blocks and cards kept, the game itself if it ended, and what the guards
round the protagonist and Hideyori still lack (the danger the horizon cut off).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..rules.components import Components
from ..rules.state_types import State
from ..rules.victory import points
from ..rules.views import view
from ..rules.vocab import ELIMINATED, MOVEMENT, other
from .chain import play_on
from .heuristic import HeuristicPlayer
from .knowledge import Knowledge
from .weights import WEIGHTS

WIN = 30.0  # a game won or lost, in points: more than any lead seen in play
# points per mon of a block eliminated, more for a leader, per card in hand, per unit of
# strength missing from a guard (bot/weights.toml, [rollout])
MATERIAL = WEIGHTS["rollout.MATERIAL"]
LEADER = WEIGHTS["rollout.LEADER"]
CARD = WEIGHTS["rollout.CARD"]
GUARD = WEIGHTS["rollout.GUARD"]
MAX_ACTIONS = 600  # a safety bound; a phase of the heuristic takes a few dozen


def rollout(
    comp: Components,
    state: State,
    policy: HeuristicPlayer,
    horizon: int,
    stopped: Callable[[], bool] | None = None,
) -> State:
    """Play on from `state` with `policy` deciding for both sides, each from its own view,
    until `horizon` new movement phases have begun (or the game ends), or until
    `stopped()` (the search's deadline: checked before each turn file, so a long rollout
    cannot hold the player past it; the caller then drops the round); the state then."""
    seen = {_phase_key(state)} - {None}
    begun = 0

    def over(state: State) -> bool:
        nonlocal begun
        if stopped is not None and stopped():
            return True
        key = _phase_key(state)
        if key is None or key in seen:
            return False
        seen.add(key)
        begun += 1
        return begun >= horizon

    def decide(state: State, side: str, offered: list[dict]) -> list[dict]:
        return [policy.choose(view(state, comp, side), offered, state)]

    return play_on(comp, state, decide, MAX_ACTIONS, over).state


def _phase_key(state: State) -> tuple | None:
    if state["step"] != MOVEMENT:
        return None
    return (state["week"], state["turn"], state["active"])


def value(comp: Components, state: State, side: str) -> float:
    """The state's worth to `side` in points: the game's result if it is over; otherwise
    what `counted` counts, each at its weight."""
    result = state["result"]
    if result is not None:
        return WIN if result["winner"] == side else -WIN
    c = counted(comp, state, side)
    worth = c.points + MATERIAL * c.mon + LEADER * c.leaders + CARD * c.cards
    return worth - GUARD * c.unguarded


class Counted(NamedTuple):
    """What a rollout's end is judged by, for one side: the point difference (2.2), the
    mon of the enemy's eliminated blocks less ours, its eliminated leaders less ours (they
    never come back, 8.7), our cards in hand less its, and what our guards lack
    (`unguarded`)."""

    points: float
    mon: float
    leaders: float
    cards: float
    unguarded: float


def counted(comp: Components, state: State, side: str) -> Counted:
    """What `value` weighs in `state` for `side` (bench/fit_value.py fits the weights)."""
    enemy = other(side)
    score = points(state, comp)
    mon = {side: 0.0, enemy: 0.0}
    leaders = {side: 0.0, enemy: 0.0}
    for b, where in state["blocks"].items():
        if where == ELIMINATED:
            spec = comp.blocks[b]
            mon[spec.side] += spec.mon
            leaders[spec.side] += spec.leader
    hands = state["cards"]
    return Counted(
        score[side] - score[enemy],
        mon[enemy] - mon[side],
        leaders[enemy] - leaders[side],
        len(hands[side]["hand"]) - len(hands[enemy]["hand"]),
        unguarded(comp, state, side),
    )


def unguarded(comp: Components, state: State, side: str) -> float:
    """How far the guards the heuristic keeps (round the protagonist, and for Ishida at
    Hideyori's Osaka: Knowledge.guard_needed) fall short, seen from our view: the danger
    a rollout cut off at its horizon has not met yet (2.1). Without it the search may
    trade a guard for points it can see before the horizon."""
    k = Knowledge(comp, view(state, comp, side), side)
    short = 0.0
    for loc in k.view["stacks"]:
        need = k.guard_needed(loc)
        if need:
            short += max(0.0, need - k.strength(k.blocks.get(loc, [])))
    return short
