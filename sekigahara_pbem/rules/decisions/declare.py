"""8.1: the phasing player names the next location to fight over; combats a retreat has
caused come first (8.8.5), a single location left is declared for it, and the phase ends
when none is left."""

from __future__ import annotations

from ..combat import combat
from ..components import Components
from ..plans import ANY, ASK
from ..state import combat_of, has_units
from ..state_types import State
from ..vocab import COMBAT, DECLARE, SIDES
from .kind import Candidates, Kind


def deciders(state: State) -> list[dict]:
    return [{"side": combat_of(state)["side"], "decision": DECLARE}]


def options(state: State, comp: Components, side: str) -> list[dict]:
    return [{"type": "declare", "location": loc} for loc in combat.to_fight(state, comp)]


def forced(state: State, comp: Components, events: list) -> bool:
    phase = combat_of(state)
    if phase["queue"]:  # 8.8.5: a combat caused by a retreat comes first
        nxt = phase["queue"].pop()
        if all(has_units(state, comp, nxt["location"], s) for s in SIDES):
            combat.start_fight(
                state, comp, nxt["location"], nxt["attacker"], nxt["entered"], events
            )
        return True
    left = combat.to_fight(state, comp)
    if len(left) > 1:
        return False
    if not left:
        combat.end_phase(state, comp, events)
        return True
    entered = phase["entered"].get(left[0], [])
    combat.start_fight(state, comp, left[0], phase["side"], entered, events)
    return True


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """Declaration is compulsory: the first location in the engine's order."""
    return legal[0]


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """The plan's order of locations; `any` stands for every location left."""
    order = plan.get("declare", ASK)
    if order == ASK:
        return
    left = combat.to_fight(state, comp)
    for i, loc in enumerate(order):
        for target in left if loc == ANY else [loc]:
            if target in left:
                yield {"type": "declare", "location": target}, f"declare[{i}]"


KIND = Kind(
    name=DECLARE,
    step=COMBAT,
    rule="8.1",
    turn_rule="8.1",
    actions={"declare": combat.declare},
    fields={"declare": {"location": ("location", False)}},
    deciders=deciders,
    options=options,
    forced=forced,
    passive=passive,
    plan=plan,
)
