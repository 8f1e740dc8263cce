"""Control of resource locations (4.2), castles (4.3) and capitals (4.5)."""

from __future__ import annotations

from .components import Components
from .state import has_units, presence, sides_at
from .state_types import State
from .vocab import SIDES


def claim(state: State, comp: Components, loc: str, side: str, events: list) -> None:
    """4.2: the last side to move a block onto or through a resource location controls it."""
    if not comp.locations[loc].resource or state["control"].get(loc) == side:
        return
    state["control"][loc] = side
    events.append({"type": "control", "rule": "4.2", "location": loc, "side": side})


def castle_controller(
    state: State, comp: Components, loc: str, sides: set[str] | None = None
) -> str | None:
    """4.3: the side with units there alone; both present, the side inside (first there);
    neither, the castle's natural alignment. None if the location has no castle.
    `sides`: the sides with units there (`state.sides_at`), when the caller knows them."""
    present = sides_at(state, comp, loc) if sides is None else sides
    castle = comp.locations[loc].castle
    if castle is None:
        return None
    return _holder(state, loc, castle, present)


def _holder(state: State, loc: str, castle: str, present: set[str]) -> str:
    """4.3 at a castle of the colour `castle`, with the sides `present`."""
    if len(present) == 1:
        return next(iter(present))
    if len(present) == 2:
        return state["castle_owner"].get(loc, castle)
    return castle


def castles(state: State, comp: Components) -> dict[str, str]:
    present = presence(state, comp)
    return {
        loc: _holder(state, loc, spec.castle, present.get(loc, set()))
        for loc, spec in comp.locations.items()
        if spec.castle is not None
    }


def castle_counts(
    state: State, comp: Components, held: dict[str, str] | None = None
) -> dict[str, int]:
    """The castles each side holds (4.3); `held`: `castles`, when the caller has it."""
    counts = dict.fromkeys(SIDES, 0)
    for side in (castles(state, comp) if held is None else held).values():
        counts[side] += 1
    return counts


def resource_counts(state: State, comp: Components) -> dict[str, int]:
    counts = dict.fromkeys(SIDES, 0)
    for loc, side in state["control"].items():
        if comp.locations[loc].resource:
            counts[side] += 1
    return counts


def note_arrival(state: State, comp: Components, loc: str, side: str) -> None:
    """Record who owns a castle once the other side arrives (8.9.1: the side there first)."""
    if comp.locations[loc].castle is None or loc in state["castle_owner"]:
        return
    for s in SIDES:
        if s != side and has_units(state, comp, loc, s):
            state["castle_owner"][loc] = s


def forget_owners(state: State, comp: Components) -> None:
    """Drop castle ownership and siege marks where the sides no longer meet."""
    owners, besieged = state["castle_owner"], state["besieged"]
    if not owners and not besieged:
        return
    present = presence(state, comp, owners.keys() | besieged.keys())
    for loc in list(owners):
        if len(present.get(loc, ())) < len(SIDES):
            del owners[loc]
    for loc in list(besieged):
        if len(present.get(loc, ())) < len(SIDES):
            del besieged[loc]
