"""The game state: plain JSON-compatible data, and the small queries every rule needs.

Schema (docs/state.md has the full description):
  format, options, rng, week, turn, step, first, active, bid_winner,
  blocks   {block id: location id | bag | recruit | mori | eliminated}
  disks    {disk id: location id | eliminated}
  cards    {side: {deck: [... top last], hand: [...], discard: [...]}}
  control  {resource location: side} - only locations ever claimed (4.2)
  castle_owner {castle location: side} - who was there first while both sides are present
  besieged {castle location: side} - the side shut inside the castle (8.9.6)
  sealed   {side: submission} - simultaneous decisions not yet revealed (6.2, 6.3)
  phase    movement-phase bookkeeping of the active side (7)
  combat   the combat phase in progress (8), see rules/combat/combat.py
  result   None, or {winner, how, ...} once the game is over (2.1, 2.2)
  plans    {side: battle plan} - standing orders filed by each side (rules/plans.py)
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Container, Mapping
from typing import TYPE_CHECKING, TypeVar, cast

from .state_types import Combat, Fight, Phase, State
from .vocab import BAG, N_, Malformed

if TYPE_CHECKING:  # a state's readers (canonical, game_options) need no component set
    from .components import Components

FORMAT = "sekigahara-state/1"

DEFAULT_OPTIONS = {
    # 4.5: capitals begin the game controlled by the side whose colour frames them.
    "capitals_start_controlled": True,
    # 8.10: the overrun side draws one card for every two blocks it lost.
    "overrun_loss_cards": True,
}

# The rulebook a game follows where the two editions differ in substance (docs/rulings.md,
# "The first edition"): the 2016 printing, or the earlier web edition (7.3.1). Absent
# means 2016, and the default is never written into a state: games archived before the
# option existed have no such key, and must replay to the same bytes.
EDITION = "edition"
FIRST_EDITION = "first-edition"
EDITIONS = ("2016", FIRST_EDITION)


def game_options(given: Mapping[str, object] | None, where: str = "options") -> dict[str, object]:
    """The options a game is played with: the defaults, overridden by `given`. One check
    for setup, positions and game.txt, so that all three refuse the same things: an
    unknown name, or a value the option cannot take (Malformed, naming `where`.name)."""
    options: dict[str, object] = dict(DEFAULT_OPTIONS)
    for name, value in (given or {}).items():
        field = f"{where}.{name}"
        if name == EDITION:
            if value not in EDITIONS:
                raise Malformed(field, N_("expected one of {words}"), words=", ".join(EDITIONS))
            if value != EDITIONS[0]:
                options[name] = value
        elif name not in DEFAULT_OPTIONS:
            raise Malformed(field, N_("unknown game option"))
        elif not isinstance(value, bool):
            raise Malformed(field, N_("expected true or false"))
        else:
            options[name] = value
    return options


def new_state(comp: Components, options: dict, generator: dict, step: str) -> State:
    """The skeleton every game starts from: week 1, turn A, all blocks in their bags,
    disks at their castles (9.1, 9.2), nothing controlled, no cards dealt."""
    return {
        "format": FORMAT,
        "options": options,
        "rng": generator,
        "week": 1,
        "turn": "A",
        "step": step,
        "first": None,
        "active": None,
        "bid_winner": None,
        "blocks": dict.fromkeys(comp.blocks, BAG),
        "disks": {d.id: d.location for d in comp.disks.values()},
        "cards": {},
        "control": {},
        "castle_owner": {},
        "besieged": {},
        "sealed": {},
        "phase": None,
        "combat": None,
        "result": None,
        "plans": {},
    }


Data = TypeVar("Data", State, dict)


def clone(state: Data) -> Data:
    """A deep copy; marshal is exact for plain data and much faster than deepcopy. (A
    State is a plain dict at run time, which marshal's types do not say.)"""
    return marshal.loads(marshal.dumps(cast(dict, state)))


def canonical(state: object) -> str:
    """The one serialisation every hash is taken over: sorted keys, no spaces."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def blocks_at(state: State, comp: Components, loc: str, side: str | None = None) -> list[str]:
    """Blocks at a location (or box), sorted, optionally of one side."""
    side_of = comp.unit_side
    return sorted(
        b
        for b, where in state["blocks"].items()
        if where == loc and (side is None or side_of[b] == side)
    )


def disks_at(state: State, comp: Components, loc: str, side: str | None = None) -> list[str]:
    return sorted(
        d
        for d, where in state["disks"].items()
        if where == loc and (side is None or comp.disks[d].side == side)
    )


def has_units(state: State, comp: Components, loc: str, side: str) -> bool:
    """Blocks or disks of `side` at `loc`: disks are units too (3.4). (Plain loops: the
    engine asks this after every step of every move.)"""
    side_of = comp.unit_side
    for pieces in (state["blocks"], state["disks"]):
        for piece, where in pieces.items():
            if where == loc and side_of[piece] == side:
                return True
    return False


def sides_at(state: State, comp: Components, loc: str) -> set[str]:
    """The sides with units (blocks or disks) at `loc`."""
    side_of = comp.unit_side
    present = {side_of[b] for b, w in state["blocks"].items() if w == loc}
    return present | {side_of[d] for d, w in state["disks"].items() if w == loc}


def presence(
    state: State, comp: Components, among: Container[str] | None = None
) -> dict[str, set[str]]:
    """For every map location with units, the sides that have units there; only for the
    locations `among`, when the caller asks about a few (the scan then skips the rest)."""
    present: dict[str, set[str]] = {}
    places, side_of = comp.locations if among is None else among, comp.unit_side
    for pieces in (state["blocks"], state["disks"]):
        for piece, where in pieces.items():
            if where not in places:
                continue
            if where in present:
                present[where].add(side_of[piece])
            else:
                present[where] = {side_of[piece]}
    return present


def contested(state: State, comp: Components) -> list[str]:
    """Locations where opposing pieces are together, where combat must be declared (8.1).
    (One pass noting the first side seen at each location: the engine asks this after
    every decision of the combat phase.)"""
    on_map, side_of = comp.locations, comp.unit_side
    first: dict[str, str] = {}
    both: set[str] = set()
    for pieces in (state["blocks"], state["disks"]):
        for piece, where in pieces.items():
            if where in on_map:
                side = side_of[piece]
                if first.setdefault(where, side) != side:
                    both.add(where)
    return sorted(both)


# The parts of the state that exist only at some steps, for the rules that run only then
# (a cast, not a check: the engine routes an action or a forced step to a rule only at the
# step that has the part, and a check here would cost every step of every playout).


def phase_of(state: State) -> Phase:
    """The Movement Phase: set when a side's phase starts (`movement.start_phase`) and kept
    through its Combat Phase, until the next week's Reinforcement Step."""
    return cast(Phase, state["phase"])


def combat_of(state: State) -> Combat:
    """The Combat Phase, from the end of the movement (`combat.end_movement`) to its end."""
    return cast(Combat, state["combat"])


def fight_of(state: State) -> Fight:
    """The fight in progress: from a declaration (`combat.start_fight`) to its close."""
    return cast(Fight, cast(Combat, state["combat"])["fight"])
