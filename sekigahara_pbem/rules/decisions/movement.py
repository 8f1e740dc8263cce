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

from ..combat import combat
from ..components import Components
from ..movement.mori import bring_mori
from ..movement.movement import capacity, choose_level, leadership, move, road_key
from ..movement.muster import muster, recruitment_locations
from ..state import blocks_at, presence
from ..vocab import ISHIDA, LEVELS, MORI_BOX, MOVEMENT, RECRUIT, other
from .kind import Choice, Dialogue, Kind, Question
from .stack_move import compose_move, movable_stacks


def deciders(state: dict) -> list[dict]:
    return [{"side": state["active"], "decision": MOVEMENT}]


def options(state: dict, comp: Components, side: str) -> list[dict]:
    hand = sorted(state["cards"][side]["hand"])
    phase = state["phase"]
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
    if not phase["mustered"]:
        acts += _musters(state, comp, side)
    stops = enemy_locations(state, comp, other(side))
    for origin, here in own_stacks(state, comp, side).items():
        acts += _moves_from(state, comp, side, origin, here, stops, hand)
    return acts


def guide(state: dict, comp: Components, side: str) -> Dialogue:
    """Level and cards first; then what to do next: move a stack, muster, bring Mōri
    blocks, or end the phase."""
    hand = sorted(state["cards"][side]["hand"])
    phase = state["phase"]
    mori = _mori(state, comp, side, hand)
    if phase["level"] is None:
        if mori:
            what = yield Question("movement", (Choice("level"), Choice("mori")), default="level")
            if what == "mori":
                return (yield from _guide_mori(state, comp, hand))
        return (yield from _guide_level(hand))
    what: list[Choice] = []
    can_move = phase["level"] != "none" and phase["moves_left"] != 0
    if can_move and movable_stacks(state, comp, side):
        what.append(Choice("move", {"moves_left": phase["moves_left"]}))
    if can_move and not phase["mustered"] and _musters(state, comp, side):
        what.append(Choice("muster"))
    if mori:
        what.append(Choice("mori"))
    what.append(Choice("end_movement"))
    answer = yield Question("movement", tuple(what), default=what[0].value)
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


def _guide_muster(state: dict, comp: Components, side: str) -> Dialogue:
    """7.2: option A (any blocks of one daimyo to its own locations, shown) or option B
    (one block to any friendly recruitment location, unseen)."""
    box = blocks_at(state, comp, RECRUIT, side)
    option = yield Question("muster_option", (Choice("A"), Choice("B")))
    if option == "A":
        clans = sorted({comp.blocks[b].clan for b in box})
        clan = yield Question("clan", tuple(Choice(c) for c in clans))
        mine = [b for b in box if comp.blocks[b].clan == clan]
        places = _muster_places(state, comp, side, clan)
        to = yield Question("muster_to", tuple(Choice(loc) for loc in places))
        blocks = mine
        if len(mine) > 1:
            blocks = yield Question("muster_blocks", tuple(Choice(b) for b in mine), "some", mine)
        return {"type": "muster", "option": "A", "to": to, "blocks": list(blocks)}
    block = yield Question("muster_block", tuple(Choice(b) for b in box))
    places = _muster_places(state, comp, side, None)
    to = yield Question("muster_to", tuple(Choice(loc) for loc in places))
    return {"type": "muster", "option": "B", "to": to, "blocks": [block]}


def _guide_mori(state: dict, comp: Components, hand: list[str]) -> Dialogue:
    """9.3: one card per block; the leader comes last, so it comes only with all the rest."""
    box = sorted(blocks_at(state, comp, MORI_BOX), key=lambda b: (comp.blocks[b].leader > 0, b))
    cards = yield Question("mori_cards", tuple(Choice(c) for c in hand), "some", None, len(box))
    blocks = box
    if len(cards) < len(box):
        plain = [b for b in box if not comp.blocks[b].leader]
        blocks = plain[: len(cards)]
        if len(plain) > len(cards):
            blocks = yield Question("mori_blocks", tuple(Choice(b) for b in plain), len(cards))
    return {"type": "mori", "cards": list(cards), "blocks": list(blocks)}


def passive(state: dict, comp: Components, side: str, legal: list[dict]) -> dict:
    """No movement."""
    if state["phase"]["level"] is None:
        return {"type": "level", "level": "none", "cards": []}
    return {"type": "end_movement"}


def reach(state: dict, comp: Components, side: str) -> dict[str, dict[str, bool]]:
    """Where each stack that may still move could go this phase, moving whole (7.3.3-7.3.6,
    a leader's +1 claimed where one is there): location -> True if only a force march gets
    it there. For the map's highlights; the dialogue checks every step itself."""
    phase = state["phase"]
    stops = enemy_locations(state, comp, other(side))
    march = bool(state["cards"][side]["hand"])
    out: dict[str, dict[str, bool]] = {}
    for origin, here in own_stacks(state, comp, side).items():
        if origin in phase["sources"] or state["besieged"].get(origin) == side:
            continue
        movable = [b for b in here if b not in phase["moved"] and b not in phase["arrived"]]
        if not movable:
            continue
        lead = leadership(state, comp, side, origin, None) is not None
        lead = lead or any(comp.blocks[b].leader for b in here)
        places: dict[str, bool] = {}
        for path, highway in _paths(state, comp, origin, stops, lead, march):
            walk = capacity(highway, lead, False, len(movable))
            if len(path) <= walk:
                places[path[-1]] = False
            elif march and len(path) == walk + 1:
                places.setdefault(path[-1], True)
        if places:
            out[origin] = dict(sorted(places.items()))
    return out


def own_stacks(state: dict, comp: Components, side: str) -> dict[str, list[str]]:
    """The side's blocks on the map by location, locations and blocks sorted."""
    stacks: dict[str, list[str]] = {}
    for b, w in sorted(state["blocks"].items()):
        if w in comp.locations and comp.blocks[b].side == side:
            stacks.setdefault(w, []).append(b)
    return dict(sorted(stacks.items()))


def enemy_locations(state: dict, comp: Components, enemy: str) -> set[str]:
    stops = {w for b, w in state["blocks"].items() if comp.blocks[b].side == enemy}
    return stops | {w for d, w in state["disks"].items() if comp.disks[d].side == enemy}


def _mori(state: dict, comp: Components, side: str, hand: list[str]) -> list[dict]:
    box = blocks_at(state, comp, MORI_BOX)
    if side != ISHIDA or not box or comp.mori_entry is None:
        return []
    ordered = sorted(box, key=lambda b: (comp.blocks[b].leader > 0, b))
    return [
        {"type": "mori", "cards": hand[:k], "blocks": ordered[:k]}
        for k in range(1, min(len(hand), len(ordered)) + 1)
    ]


def _muster_places(
    state: dict,
    comp: Components,
    side: str,
    clan: str | None,
    present: dict[str, set[str]] | None = None,
) -> list[str]:
    """7.2: a muster may support a friendly stack but cannot start a combat. `present`:
    the sides at each location, when the caller has them already."""
    present = presence(state, comp) if present is None else present
    enemy = other(side)
    return [
        loc
        for loc in recruitment_locations(comp, side, clan)
        if enemy not in present.get(loc, ()) or side in present.get(loc, ())
    ]


def _musters(state: dict, comp: Components, side: str) -> list[dict]:
    box = blocks_at(state, comp, RECRUIT, side)
    if not box:
        return []
    present = presence(state, comp)
    acts = []
    for clan in sorted({comp.blocks[b].clan for b in box}):
        blocks = [b for b in box if comp.blocks[b].clan == clan]
        acts += [
            {"type": "muster", "option": "A", "to": loc, "blocks": blocks}
            for loc in _muster_places(state, comp, side, clan, present)
        ]
    for loc in _muster_places(state, comp, side, None, present):
        acts += [{"type": "muster", "option": "B", "to": loc, "blocks": [b]} for b in box]
    return acts


def _moves_from(
    state: dict,
    comp: Components,
    side: str,
    origin: str,
    here: list[str],
    stops: set[str],
    hand: list[str],
) -> list[dict]:
    phase = state["phase"]
    if origin in phase["sources"] or state["besieged"].get(origin) == side:
        return []
    movable = [b for b in here if b not in phase["moved"] and b not in phase["arrived"]]
    if not movable:
        return []
    leaders = [b for b in here if comp.blocks[b].leader]
    leader = None
    lead = leadership(state, comp, side, origin, None) is not None
    if not lead and leaders:
        leader, lead = leaders[0], True
    whole = len(movable)
    singles = [[b] for b in movable] if whole > 1 else []
    reach = {
        hw: (capacity(hw, lead, False, whole), capacity(hw, lead, False, 1)) for hw in (True, False)
    }
    card = hand[0] if hand else None
    acts = []
    groups = [(movable, 0)] + [(b, 1) for b in singles]  # 0: the whole stack, 1: one block
    for path, highway in _paths(state, comp, origin, stops, lead, bool(hand)):
        length = len(path)
        most_of = reach[highway]
        for blocks, size in groups:
            most = most_of[size]
            if length <= most:
                group = {"blocks": blocks, "path": path}
            elif card is not None and length == most + 1:
                group = {"blocks": blocks, "path": path, "force_march": card}
            else:
                continue
            act = {"type": "move", "from": origin, "groups": [group]}
            if leader:
                act["leader"] = leader
            acts.append(act)
    return acts


def _paths(
    state: dict, comp: Components, origin: str, stops: set[str], lead: bool, march: bool
) -> list[tuple[list[str], bool]]:
    """Simple paths from origin over unused roads that a single block could travel,
    ending at the first location with enemy units (7.3.2)."""
    used = set(state["phase"]["roads"])
    reach = {hw: capacity(hw, lead, march, 1) for hw in (True, False)}
    edges = _edges(comp)
    out: list[tuple[list[str], bool]] = []

    def walk(loc: str, path: list[str], highway: bool) -> None:
        for nxt, road, is_highway in edges[loc]:
            if nxt == origin or nxt in path or road in used:
                continue
            new_path = path + [nxt]
            hw = highway and is_highway
            out.append((new_path, hw))
            if len(new_path) < reach[hw] and nxt not in stops:
                walk(nxt, new_path, hw)

    walk(origin, [], True)
    return out


def _edges(comp: Components) -> dict[str, tuple[tuple[str, str, bool], ...]]:
    """Each location's roads as (neighbour, road key, highway?), in `comp.adjacent`'s
    order; made once per component set (path search walks them for every option list)."""
    hit = _EDGES.get(id(comp))
    if hit is None or hit[0] is not comp:
        if len(_EDGES) >= 8:
            _EDGES.clear()
        table = {
            loc: tuple((n, road_key(loc, n), bool(comp.road(loc, n))) for n in near)
            for loc, near in comp.adjacent.items()
        }
        hit = _EDGES[id(comp)] = (comp, table)
    return hit[1]


_EDGES: dict[int, tuple[Components, dict]] = {}


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
)
