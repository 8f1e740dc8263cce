"""Legal choices for the decision a side faces, as concrete actions.

Discards, bids, the first-player choice and the movement levels are listed in full. The
movement phase has too many legal orders to list (every split of every stack along every
path), so for moves it lists, per stack, the whole movable stack and each single block
along every simple path within reach, with and without a force march; musters (option A
per daimyo and location, option B per block and location) and Mōri arrivals are listed in
full. Every listed action is legal; the property tests apply each one.
"""

from __future__ import annotations

from itertools import combinations

from . import aftermath, deploy
from .combat import to_fight
from .components import Components
from .cycle import discard_count
from .engine import pending
from .movement import capacity, leadership, road_key
from .muster import recruitment_locations
from .state import blocks_at, has_units
from .vocab import (
    BID,
    CASTLE,
    CHALLENGE,
    CHOOSE_FIRST,
    COMBAT,
    DEPLOY,
    DISCARD,
    ISHIDA,
    LEVELS,
    LOSSES,
    MORI_BOX,
    MOVEMENT,
    RECRUIT,
    SIDES,
    other,
)

MAX_LISTED_DISCARDS = 2000
MAX_LISTED_LOSSES = 200


def options(state: dict, comp: Components, side: str) -> list[dict]:
    """Concrete legal actions for `side` now (empty if nothing is asked of it)."""
    if not any(d["side"] == side for d in pending(state)):
        return []
    step = state["step"]
    hand = sorted(state["cards"][side]["hand"])
    if step == DISCARD:
        combos = combinations(hand, discard_count(state, side))
        return [
            {"type": "discard", "cards": list(c)}
            for _, c in zip(range(MAX_LISTED_DISCARDS), combos, strict=False)
        ]
    if step == BID:
        return [{"type": "bid", "card": c} for c in hand]
    if step == CHOOSE_FIRST:
        return [{"type": "choose_first", "first": s} for s in SIDES]
    if step == MOVEMENT:
        return _movement(state, comp, side, hand)
    if step == COMBAT:
        return _combat(state, comp, side, hand)
    return []


def _combat(state: dict, comp: Components, side: str, hand: list[str]) -> list[dict]:
    fight = state["combat"]["fight"]
    if fight is None:
        return [{"type": "declare", "location": loc} for loc in to_fight(state, comp)]
    stage = fight["stage"]
    if stage == CASTLE:
        return [{"type": "castle", "inside": True}, {"type": "castle", "inside": False}]
    if stage == DEPLOY:
        return deploy.legal_deployments(state, comp, side) + [{"type": "finish"}]
    if stage == CHALLENGE:
        challenges = [c for c in hand if comp.cards[c].kind == "loyalty"]
        return [{"type": "challenge", "card": c} for c in challenges] + [{"type": "decline"}]
    if stage == LOSSES:
        picks = aftermath.loss_choices(comp, fight, side, MAX_LISTED_LOSSES)
        return [{"type": "losses", "units": p} for p in picks]
    return _retreats(state, comp, fight)


def _retreats(state: dict, comp: Components, fight: dict) -> list[dict]:
    """Every destination, and with a castle every choice of up to two blocks to leave in it
    (the force is listed in full only while it is small)."""
    allowed, castle = aftermath.retreat_options(state, comp, fight)
    loser = other(fight["winner"])
    force = [b for b in fight["forces"][loser] if state["blocks"][b] == fight["location"]]
    stays: list[list[str]] = [[]]
    if castle:
        for k in range(1, aftermath.CASTLE_LIMIT + 1):
            stays += [list(c) for c in combinations(force, k)][:MAX_LISTED_LOSSES]
    acts = []
    for stay in stays:
        if len(stay) == len(force):
            acts.append({"type": "retreat", "castle": stay})
            continue
        acts += [{"type": "retreat", "to": to, "castle": stay} for to in allowed]
    return acts


def _movement(state: dict, comp: Components, side: str, hand: list[str]) -> list[dict]:
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
    stacks: dict[str, list[str]] = {}
    for b, w in sorted(state["blocks"].items()):
        if w in comp.locations and comp.blocks[b].side == side:
            stacks.setdefault(w, []).append(b)
    stops = _enemy_locations(state, comp, other(side))
    for origin in sorted(stacks):
        acts += _moves_from(state, comp, side, origin, stacks[origin], stops, hand)
    return acts


def _enemy_locations(state: dict, comp: Components, enemy: str) -> set[str]:
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


def _can_muster_to(state: dict, comp: Components, side: str, loc: str) -> bool:
    return not has_units(state, comp, loc, other(side)) or has_units(state, comp, loc, side)


def _musters(state: dict, comp: Components, side: str) -> list[dict]:
    box = blocks_at(state, comp, RECRUIT, side)
    acts = []
    for clan in sorted({comp.blocks[b].clan for b in box}):
        blocks = [b for b in box if comp.blocks[b].clan == clan]
        acts += [
            {"type": "muster", "option": "A", "to": loc, "blocks": blocks}
            for loc in recruitment_locations(comp, side, clan)
            if _can_muster_to(state, comp, side, loc)
        ]
    for loc in recruitment_locations(comp, side):
        if _can_muster_to(state, comp, side, loc):
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
    groups = [movable] + ([[b] for b in movable] if len(movable) > 1 else [])
    acts = []
    for path, highway in _paths(state, comp, origin, stops, lead, bool(hand)):
        for blocks in groups:
            reach = capacity(highway, lead, False, len(blocks))
            march = len(path) == reach + 1 and bool(hand)
            if len(path) > reach and not march:
                continue
            group = {"blocks": blocks, "path": path}
            if march:
                group["force_march"] = hand[0]
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
    out: list[tuple[list[str], bool]] = []

    def walk(loc: str, path: list[str], highway: bool) -> None:
        for nxt in comp.adjacent[loc]:
            if nxt == origin or nxt in path or road_key(loc, nxt) in used:
                continue
            new_path = path + [nxt]
            hw = highway and bool(comp.road(loc, nxt))
            out.append((new_path, hw))
            if len(new_path) < reach[hw] and nxt not in stops:
                walk(nxt, new_path, hw)

    walk(origin, [], True)
    return out
