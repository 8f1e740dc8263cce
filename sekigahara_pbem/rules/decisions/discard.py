"""6.2: the sealed half-hand discard of the Reinforcement Step, both sides at once."""

from __future__ import annotations

from itertools import combinations

from ..components import Components
from ..cycle import cycle
from ..state_types import State
from ..vocab import DISCARD
from .kind import Choice, Dialogue, Kind, Question

MAX_LISTED = 2000  # a packet lists this many combinations at most; the dialogue has them all


def deciders(state: State) -> list[dict]:
    return [
        {"side": s, "decision": DISCARD, "count": cycle.discard_count(state, s)}
        for s in cycle.awaiting(state)
    ]


def options(state: State, comp: Components, side: str) -> list[dict]:
    hand = sorted(state["cards"][side]["hand"])
    combos = combinations(hand, cycle.discard_count(state, side))
    return [
        {"type": "discard", "cards": list(c)}
        for _, c in zip(range(MAX_LISTED), combos, strict=False)
    ]


def guide(state: State, comp: Components, side: str) -> Dialogue:
    hand = sorted(state["cards"][side]["hand"])
    cards = yield Question(
        "discard", tuple(Choice(c) for c in hand), cycle.discard_count(state, side)
    )
    return {"type": "discard", "cards": sorted(cards)}


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """The lowest bid numbers go."""
    hand = sorted(state["cards"][side]["hand"], key=lambda c: comp.cards[c].bid)
    return {"type": "discard", "cards": sorted(hand[: cycle.discard_count(state, side)])}


KIND = Kind(
    name=DISCARD,
    step=DISCARD,
    rule="6.2",
    turn_rule="6.2",
    actions={"discard": cycle.submit_discard},
    fields={"discard": {"cards": ("card", True)}},
    deciders=deciders,
    options=options,
    guide=guide,
    passive=passive,
    sealed=("cards",),  # 6.2: the discards are shown once both are made
)
