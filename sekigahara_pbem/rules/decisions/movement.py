"""7: the Movement Phase as one decision of the active side, answered by several actions:
the movement level and its cards (7.1), then stack moves (7.3), one muster (7.2) and Mōri
arrivals (9.3) in any order, and the end of the phase, which starts combat (8.1).

The packet's list (`options`) cannot hold every legal move (every split of every stack
along every path), so it lists per stack the whole movable stack and each single block
along every simple path within reach; the guided dialogue (`guide`, with stack moves
composed in rules/decisions/stack_move.py) reaches every legal action.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..combat import combat
from ..components import Components
from ..movement.mori import bring_mori
from ..movement.movement import (
    capacity,
    choose_level,
    leadership,
    move,
    road_key,
    size_penalty,
)
from ..movement.muster import muster, recruitment_locations
from ..state import blocks_at, phase_of
from ..state_types import State
from ..vocab import ISHIDA, LEVELS, MORI_BOX, MOVEMENT, RECRUIT, other
from .kind import Choice, Dialogue, Kind, Listing, Question
from .stack_move import compose_move, movable_stacks


def deciders(state: State) -> list[dict]:
    return [{"side": state["active"], "decision": MOVEMENT}]


def options(state: State, comp: Components, side: str) -> list[dict] | Listing:
    hand = sorted(state["cards"][side]["hand"])
    phase = phase_of(state)
    acts = _mori(state, comp, side, hand)
    if phase["level"] is None:
        acts.append({"type": "level", "level": "none", "cards": []})
        for level, (cost, _) in LEVELS.items():
            if level != "none":
                acts += [
                    {"type": "level", "level": level, "cards": list(c)}
                    for c in combinations(hand, cost)
                ]
        return acts
    acts.append({"type": "end_movement"})
    if phase["level"] == "none" or phase["moves_left"] == 0:
        return acts
    seen = survey(state, comp, side)
    if not phase["mustered"]:
        _musters(state, comp, side, acts, seen)
    for stack in _movable(state, side, seen):
        _moves_from(state, comp, side, stack, seen, hand, acts)
    return Listing(acts, _action)


def guide(state: State, comp: Components, side: str) -> Dialogue:
    """Level and cards first; then what to do next: move a stack, muster, bring Mōri
    blocks, or end the phase."""
    hand = sorted(state["cards"][side]["hand"])
    phase = phase_of(state)
    mori = _mori(state, comp, side, hand)
    if phase["level"] is None:
        if mori:
            first = yield Question("movement", (Choice("level"), Choice("mori")), default="level")
            if first == "mori":
                return (yield from _guide_mori(state, comp, hand))
        return (yield from _guide_level(hand))
    what: list[Choice] = []
    can_move = phase["level"] != "none" and phase["moves_left"] != 0
    if can_move and movable_stacks(state, comp, side):
        what.append(Choice("move", {"moves_left": phase["moves_left"]}))
    if can_move and not phase["mustered"] and _musters(state, comp, side, []):
        what.append(Choice("muster"))
    if mori:
        what.append(Choice("mori"))
    what.append(Choice("end_movement"))
    # Enter moves or musters while it may; then it ends the phase, never spends cards on
    # Mōri's blocks (issue 41: the default once the moves were spent)
    default = what[0].value if what[0].value != "mori" else "end_movement"
    answer = yield Question("movement", tuple(what), default=default)
    if answer == "move":
        return (yield from compose_move(state, comp, side))
    if answer == "muster":
        return (yield from _guide_muster(state, comp, side))
    if answer == "mori":
        return (yield from _guide_mori(state, comp, hand))
    return {"type": "end_movement"}


def _guide_level(hand: list[str]) -> Dialogue:
    affordable = [lv for lv, (cost, _) in LEVELS.items() if cost <= len(hand)]
    level = yield Question("level", tuple(Choice(lv) for lv in affordable))
    cost = LEVELS[level][0]
    cards: list = []
    if level == "none" and hand:
        cards = yield Question("level_redraw", tuple(Choice(c) for c in hand), "any", [])
    elif cost:
        cards = yield Question("level_cards", tuple(Choice(c) for c in hand), cost)
    return {"type": "level", "level": level, "cards": list(cards)}


def _guide_muster(state: State, comp: Components, side: str) -> Dialogue:
    """7.2: option A (any blocks of one daimyo to its own locations, shown) or option B
    (one block to any friendly recruitment location, unseen). Only what the listing of
    musters holds is offered: a daimyo whose locations are all barred, or none printed
    (the Ii and Ishida blocks), has no option A."""
    box = blocks_at(state, comp, RECRUIT, side)
    places_a: dict[str, list[str]] = {}
    places_b: list[str] = []
    for _, option, loc, blocks, _first in _musters(state, comp, side, []):
        if option == "A":
            places_a.setdefault(comp.blocks[blocks[0]].clan, []).append(loc)
        elif loc not in places_b:
            places_b.append(loc)
    offered = [o for o, places in (("A", places_a), ("B", places_b)) if places]
    option = yield Question("muster_option", tuple(Choice(o) for o in offered))
    if option == "A":
        clan = yield Question("clan", tuple(Choice(c) for c in sorted(places_a)))
        mine = [b for b in box if comp.blocks[b].clan == clan]
        to = yield Question("muster_to", tuple(Choice(loc) for loc in places_a[clan]))
        blocks = mine
        if len(mine) > 1:
            blocks = yield Question("muster_blocks", tuple(Choice(b) for b in mine), "some", mine)
        return {"type": "muster", "option": "A", "to": to, "blocks": list(blocks)}
    block = yield Question("muster_block", tuple(Choice(b) for b in box))
    to = yield Question("muster_to", tuple(Choice(loc) for loc in places_b))
    return {"type": "muster", "option": "B", "to": to, "blocks": [block]}


def _guide_mori(state: State, comp: Components, hand: list[str]) -> Dialogue:
    """9.3: one card per block; the leader comes last, so it comes only with all the rest."""
    box = sorted(blocks_at(state, comp, MORI_BOX), key=lambda b: (comp.blocks[b].leader > 0, b))
    most = min(len(box), len(hand))  # a card per block: no more than either
    cards = yield Question("mori_cards", tuple(Choice(c) for c in hand), "some", None, most)
    blocks = box
    if len(cards) < len(box):
        plain = [b for b in box if not comp.blocks[b].leader]
        blocks = plain[: len(cards)]
        if len(plain) > len(cards):
            blocks = yield Question("mori_blocks", tuple(Choice(b) for b in plain), len(cards))
    return {"type": "mori", "cards": list(cards), "blocks": list(blocks)}


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """No movement."""
    if phase_of(state)["level"] is None:
        return {"type": "level", "level": "none", "cards": []}
    return {"type": "end_movement"}


def reach(state: State, comp: Components, side: str) -> dict[str, dict[str, bool]]:
    """Where each stack that may still move could go this phase, moving whole (7.3.3-7.3.6,
    a leader's +1 claimed where one is there): location -> True if only a force march gets
    it there. For the map's highlights; the dialogue checks every step itself."""
    seen = survey(state, comp, side)
    hand = sorted(state["cards"][side]["hand"])
    out: dict[str, dict[str, bool]] = {}
    for stack in _movable(state, side, seen):
        entries: list = []
        _moves_from(state, comp, side, stack, seen, hand, entries)
        places: dict[str, bool] = {}
        for _, _, _, path, march, _, first in entries:
            if first is None and march is None:
                places[path[-1]] = False
            elif first is None:
                places.setdefault(path[-1], True)
        if places:
            out[stack.origin] = dict(sorted(places.items()))
    return out


class Survey(NamedTuple):
    """What listing the moves asks again and again, from one pass over the pieces:
    the side's stacks on the map by location (locations and blocks sorted), the map
    locations with enemy units (where a move stops, 7.3.2) and with its own, and its
    blocks in the Recruitment Box (sorted; 7.2); and the roads used this phase (7.3.1)."""

    side: str
    stacks: dict[str, list[str]]
    stops: set[str]
    held: set[str]
    recruit: list[str]
    roads: set[str]

    def sides(self, loc: str) -> set[str]:
        """The sides with units at `loc`, as `state.sides_at` finds them."""
        if loc in self.stops:
            return {self.side, other(self.side)} if loc in self.held else {other(self.side)}
        return {self.side} if loc in self.held else set()


def survey(state: State, comp: Components, side: str) -> Survey:
    """The side's `Survey` of the map now."""
    on_map, side_of = comp.locations, comp.unit_side
    stacks: dict[str, list[str]] = {}
    stops: set[str] = set()
    recruit: list[str] = []
    for b, loc in state["blocks"].items():
        if loc not in on_map:
            if loc == RECRUIT and side_of[b] == side:
                recruit.append(b)
            continue
        if side_of[b] != side:
            stops.add(loc)
        elif loc in stacks:
            stacks[loc].append(b)
        else:
            stacks[loc] = [b]
    held = set(stacks)
    for d, loc in state["disks"].items():
        if loc in on_map:
            (held if side_of[d] == side else stops).add(loc)
    for blocks in stacks.values():
        blocks.sort()
    recruit.sort()
    roads = set(phase_of(state)["roads"])
    return Survey(side, dict(sorted(stacks.items())), stops, held, recruit, roads)


def _mori(state: State, comp: Components, side: str, hand: list[str]) -> list[dict]:
    if side != ISHIDA or comp.mori_entry is None or MORI_BOX not in state["blocks"].values():
        return []
    box = blocks_at(state, comp, MORI_BOX)
    ordered = sorted(box, key=lambda b: (comp.blocks[b].leader > 0, b))
    return [
        {"type": "mori", "cards": hand[:k], "blocks": ordered[:k]}
        for k in range(1, min(len(hand), len(ordered)) + 1)
    ]


def _muster_places(
    state: State,
    comp: Components,
    side: str,
    clan: str | None,
    seen: Survey | None = None,
) -> list[str]:
    """7.2: a muster may support a friendly stack but cannot start a combat. `seen`:
    the side's survey of the map, when the caller has it already."""
    seen = survey(state, comp, side) if seen is None else seen
    return [
        loc
        for loc in recruitment_locations(comp, side, clan)
        if loc not in seen.stops or loc in seen.held
    ]


def _musters(
    state: State, comp: Components, side: str, entries: list, seen: Survey | None = None
) -> list:
    """Add to `entries` the musters of 7.2 as `_action` entries, and return it: ("muster",
    option, location, blocks, None for all of them or else the index of the first option
    B: a location's blocks alone are one entry repeated)."""
    seen = survey(state, comp, side) if seen is None else seen
    box = seen.recruit
    if not box:
        return entries
    clans: dict[str, list[str]] = {}
    for b in box:
        clans.setdefault(comp.blocks[b].clan, []).append(b)
    for clan, blocks in sorted(clans.items()):
        places = _muster_places(state, comp, side, clan, seen)
        entries += [("muster", "A", loc, blocks, None) for loc in places]
    for loc in _muster_places(state, comp, side, None, seen):
        entries += [("muster", "B", loc, box, len(entries))] * len(box)
    return entries


class Movable(NamedTuple):
    """A stack that may still move: its place, its blocks, and those of them that may."""

    origin: str
    here: list[str]
    movable: list[str]


def _movable(state: State, side: str, seen: Survey) -> list[Movable]:
    """The side's stacks that may still move, each with its blocks and those of them that
    may move: a stack moves once a phase (7.1), a block once a turn (7.3.1), blocks
    mustered (7.2) or brought by Mōri (9.3) stay this turn, besieged blocks stay (8.9.6)."""
    phase = phase_of(state)
    gone = set(phase["sources"])
    gone.update(loc for loc, inside in state["besieged"].items() if inside == side)
    stay = set(phase["moved"]).union(phase["arrived"])
    out = []
    for origin, here in seen.stacks.items():
        if origin in gone:
            continue
        movable = here if stay.isdisjoint(here) else [b for b in here if b not in stay]
        if movable:
            out.append(Movable(origin, here, movable))
    return out


def _moves_from(
    state: State,
    comp: Components,
    side: str,
    stack: Movable,
    seen: Survey,
    hand: list[str],
    entries: list,
) -> None:
    """Add to `entries` the whole movable stack and each of its blocks alone along every
    simple path over unused roads, stopping at enemies (7.3.1, 7.3.2), as far as 7.3.3-7.3.6
    allow (base 1, +1 highway, +1 leadership, +1 force march, less 1 a size step), as
    `_action` entries: ("move", origin, movable blocks, path, force-march card, leader, None
    for the whole stack or else the index of the first block alone: a path's blocks alone
    are one entry repeated). One walk of the origin's `_trie`, skipping the paths past a used
    road, an enemy or a single block's reach."""
    origin, here, movable = stack
    leader = None
    lead = leadership(state, comp, side, origin, None, seen.sides) is not None
    if not lead:
        for b in here:
            if comp.blocks[b].leader:
                leader = b
                break
        lead = leader is not None
    card = hand[0] if hand else None
    single = 1 + lead  # a block's reach off the highway (the `need` of a trie path)
    whole = single - size_penalty(len(movable))  # the whole stack's, 7.3.5
    farthest = single + (card is not None)
    alone = len(movable) if len(movable) > 1 else 0  # then each block alone, if more
    used, stops = seen.roads, seen.stops
    nodes = _trie(comp, origin)
    i, end = 0, len(nodes)
    while i < end:
        path, need, road, last, after = nodes[i]
        if road in used:
            i = after
            continue
        i = i + 1 if need < farthest and last not in stops else after
        if need <= whole:
            entries.append(("move", origin, movable, path, None, leader, None))
        elif card is not None and need == whole + 1:
            entries.append(("move", origin, movable, path, card, leader, None))
        if not alone:
            continue
        if need <= single:
            entries += [("move", origin, movable, path, None, leader, len(entries))] * alone
        elif card is not None and need == single + 1:
            entries += [("move", origin, movable, path, card, leader, len(entries))] * alone


def _action(entry: dict | tuple, index: int) -> dict:
    """The option at `index` of the movement listing as its action: an entry of `_musters`
    or `_moves_from` made into a muster or a move (its lists copied: they are shared, a
    path with the trie); others as they are."""
    if isinstance(entry, dict):
        return entry
    if entry[0] == "muster":
        _, option, to, box, first = entry
        blocks = list(box) if first is None else [box[index - first]]
        return {"type": "muster", "option": option, "to": to, "blocks": blocks}
    _, origin, movable, path, march, leader, first = entry
    blocks = list(movable) if first is None else [movable[index - first]]
    group = {"blocks": blocks, "path": list(path)}
    if march is not None:
        group["force_march"] = march
    act = {"type": "move", "from": origin, "groups": [group]}
    if leader is not None:
        act["leader"] = leader
    return act


# The longest a single block can travel: highway, leadership and force march (7.3.3).
LONGEST = capacity(True, True, True, 1)


TrieNode = tuple[list[str], int, str, str, int]  # a path of `_trie` (its docstring says)


def _trie(comp: Components, origin: str) -> list[TrieNode]:
    """Every simple path from `origin` up to LONGEST roads, in depth-first order over
    `comp.adjacent`: (path, its need, the road key of its last step, its last location,
    the index after the paths that extend it). A path's need is its length, less 1 if it
    is all highway (the highway's +1 of 7.3.3 taken off the path, not added to the reach),
    so one number says whether a reach covers it. Made once per component set and origin,
    so that a listing of moves walks it instead of searching the map each time."""
    tries: dict[str, list[TrieNode]] | None = comp.memo.get(__name__)
    if tries is None:
        tries = comp.memo[__name__] = {}
    nodes = tries.get(origin)
    if nodes is None:
        nodes = tries[origin] = _build_trie(comp, origin)
    return nodes


def _build_trie(comp: Components, origin: str) -> list[TrieNode]:
    nodes: list = []

    def extend(loc: str, path: list[str], highway: bool) -> None:
        for nxt in comp.adjacent[loc]:
            if nxt == origin or nxt in path:
                continue
            new_path = path + [nxt]
            hw = highway and bool(comp.road(loc, nxt))
            at = len(nodes)
            nodes.append(None)
            if len(new_path) < LONGEST:
                extend(nxt, new_path, hw)
            nodes[at] = (new_path, len(new_path) - hw, road_key(loc, nxt), nxt, len(nodes))

    extend(origin, [], True)
    return nodes


def shows(action: dict) -> tuple[str, ...]:
    """What a move or a muster shows the enemy as it is made: the leader claiming +1
    (7.3.4), the blocks mustered under option A (7.2; option B is unseen)."""
    if action["type"] == "move":
        return ("leader",)
    if action["type"] == "muster" and action.get("option") == "A":
        return ("blocks",)
    return ()


KIND = Kind(
    name=MOVEMENT,
    step=MOVEMENT,
    rule="7.1",
    turn_rule="6.4",
    actions={
        "level": choose_level,
        "move": move,
        "muster": muster,
        "mori": bring_mori,
        "end_movement": combat.end_movement,
    },
    fields={
        "level": {"level": ("level", False), "cards": ("card", True)},
        "move": {
            "from": ("location", False),
            "leader": ("block", False),
            "groups": ("group", True),
        },
        "muster": {
            "option": ("option", False),
            "to": ("location", False),
            "blocks": ("block", True),
        },
        "mori": {"cards": ("card", True), "blocks": ("block", True)},
        "end_movement": {},
    },
    deciders=deciders,
    options=options,
    guide=guide,
    passive=passive,
    shows=shows,
)
