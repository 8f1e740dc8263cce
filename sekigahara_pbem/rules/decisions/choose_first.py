"""6.3: the bid's winner names the first player of the week."""

from __future__ import annotations

from ..components import Components
from ..cycle import cycle
from ..state_types import State
from ..vocab import CHOOSE_FIRST, SIDES, other
from .kind import Kind


def deciders(state: State) -> list[dict]:
    return [{"side": state["active"], "decision": CHOOSE_FIRST}]


def options(state: State, comp: Components, side: str) -> list[dict]:
    return [{"type": "choose_first", "first": s} for s in SIDES]


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """The opponent goes first."""
    return {"type": "choose_first", "first": other(side)}


KIND = Kind(
    name=CHOOSE_FIRST,
    step=CHOOSE_FIRST,
    rule="6.3",
    turn_rule="6.3",
    actions={"choose_first": cycle.choose_first},
    fields={"choose_first": {"first": ("side", False)}},
    deciders=deciders,
    options=options,
    passive=passive,
)
