"""6.3: the sealed bid for the first player, both sides at once."""

from __future__ import annotations

from ..components import Components
from ..cycle import cycle
from ..state_types import State
from ..vocab import BID
from .kind import Kind


def deciders(state: State) -> list[dict]:
    return [{"side": s, "decision": BID} for s in cycle.awaiting(state)]


def options(state: State, comp: Components, side: str) -> list[dict]:
    return [{"type": "bid", "card": c} for c in sorted(state["cards"][side]["hand"])]


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """The lowest bid number."""
    return {
        "type": "bid",
        "card": min(state["cards"][side]["hand"], key=lambda c: comp.cards[c].bid),
    }


KIND = Kind(
    name=BID,
    step=BID,
    rule="6.3",
    turn_rule="6.3",
    actions={"bid": cycle.submit_bid},
    fields={"bid": {"card": ("card", False)}},
    deciders=deciders,
    options=options,
    passive=passive,
    sealed=("card",),  # 6.3: both bids are revealed together
)
