"""The Movement Phase (7.1, 7.3): buying movement with cards, and stack moves.

A stack move is one action: a source location and one or more groups, each a list of
blocks and the path they take. Groups whose paths share a beginning travel together over
it, so a move is a tree of roads from the source: blocks are dropped off where their path
ends and the stack splits where paths part (7.3.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..cards import discard, draw
from ..components import Components
from ..control import castle_controller, claim, forget_owners, note_arrival
from ..fields import get_dict_list, get_str, get_str_list, known, one_of
from ..state import EDITION, FIRST_EDITION, has_units, phase_of
from ..state_types import Phase, State
from ..vocab import LEVEL_WORDS, LEVELS, N_, Malformed, Phrase, RuleViolation, other
from .overrun import try_overrun


def start_phase(state: State, side: str) -> Phase:
    """7: `side`'s Movement Phase begins (the phase made is returned)."""
    state["active"] = side
    phase: Phase = {
        "level": None,
        "moves_left": 0,  # stack moves still allowed; None = every stack (7.1)
        "mustered": False,  # 7.2: at most once per turn
        "sources": [],  # locations whose stack has moved
        "moved": [],  # 7.3.1: no block in more than one move per turn
        "arrived": {},  # block -> rule: mustered (7.2) or Mōri (9.3) blocks stay this turn
        "roads": [],  # 7.3.1: the roads used this phase, each once; closed to other stacks
        "entered": {},  # location -> where blocks came from (retreats, 8.8.2, 8.8.3)
    }
    state["phase"] = phase
    return phase


@cache
def road_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def choose_level(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """7.1: spend 0, 1 or 2 cards; 'none' may instead discard and replenish any number."""
    phase = phase_of(state)
    if phase["level"] is not None:
        raise RuleViolation("7.1", N_("the movement level is already chosen this phase"))
    level = one_of(get_str(action, "level"), LEVELS, "level")
    cards = get_str_list(action, "cards", required=False)
    cost, moves = LEVELS[level]
    if level == "none":
        discard(state, side, cards, events, "7.1", "no movement: discard and replenish")
        draw(state, side, len(cards), events, "7.1")
    else:
        if len(cards) != cost:
            raise RuleViolation(
                "7.1",
                N_("cards for {level} movement: {cost} needed, {given} given"),
                level=level,
                cost=cost,
                given=len(cards),
            )
        discard(state, side, cards, events, "7.1", f"{level} movement")
    phase["level"] = level
    phase["moves_left"] = moves
    events.append({"type": "movement_level", "rule": "7.1", "side": side, "level": level})


def spend_stack_move(state: State, what: str, rule: str) -> None:
    """Use one of the stack moves the level allows (a muster under minimal/limited too);
    `what` names the move for a refusal, marked with N_."""
    phase = phase_of(state)
    if phase["level"] is None:
        raise RuleViolation("7.1", N_("choose the movement level before moving or mustering"))
    if phase["level"] == "none":
        raise RuleViolation(
            "7.1", N_("no movement was chosen: no {what} this phase"), what=Phrase(what)
        )
    if phase["moves_left"] is None:
        return
    if phase["moves_left"] <= 0:
        raise RuleViolation(
            rule,
            N_("{level} movement allows no more stack moves"),
            level=Phrase(LEVEL_WORDS.get(phase["level"], phase["level"])),
        )
    phase["moves_left"] -= 1


@dataclass
class Node:
    """One leg of a move: the blocks travelling together onto `loc`."""

    loc: str
    blocks: list[str] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)


@dataclass
class Group:
    blocks: list[str]
    path: list[str]
    force_march: str | None


def _parse_groups(action: dict, comp: Components) -> list[Group]:
    groups = []
    for i, g in enumerate(get_dict_list(action, "groups")):
        blocks = get_str_list(g, "blocks")
        path = get_str_list(g, "path")
        if not blocks:
            raise Malformed(f"groups[{i}].blocks", N_("a group needs at least one block"))
        if not path:
            raise Malformed(f"groups[{i}].path", N_("a group needs at least one location to go to"))
        for b in blocks:
            known(b, comp.blocks, f"groups[{i}].blocks", N_("unknown block '{value}'"))
        for loc in path:
            known(loc, comp.locations, f"groups[{i}].path", N_("unknown location '{value}'"))
        groups.append(Group(blocks, path, get_str(g, "force_march", required=False)))
    return groups


def leadership(
    state: State,
    comp: Components,
    side: str,
    origin: str,
    leader: str | None,
    sides_at: Callable[[str], set[str]] | None = None,
) -> str | None:
    """7.3.4: the source of the +1 leadership bonus at the origin, if any (+1 at most).
    `sides_at`: what gives the sides with units at a location, when the caller has
    something quicker than a scan of the pieces; asked only at a friendly castle."""
    if leader is not None:
        spec = comp.blocks[leader]
        if spec.side != side or not spec.leader:
            raise RuleViolation(
                "7.3.4", N_("{leader} is not one of your leader blocks"), leader=leader
            )
        if state["blocks"][leader] != origin:
            raise RuleViolation(
                "7.3.4", N_("leader {leader} is not at {where}"), leader=leader, where=origin
            )
        return f"leader {leader}"
    loc = comp.locations[origin]
    if loc.castle == side:
        sides = None if sides_at is None else sides_at(origin)
        if castle_controller(state, comp, origin, sides) == side:
            return "castle"
    if loc.capital == side:
        return "capital"
    return None


def size_penalty(blocks: int) -> int:
    """7.3.5: -1 at the 5th, 9th, 13th and 17th block."""
    return (blocks - 1) // 4


def source_words(source: str) -> Phrase:
    """A leadership source (`leadership`: 'leader <block>', 'castle', 'capital') in words,
    its English as the engine writes it."""
    if source.startswith("leader "):
        return Phrase(N_("leader {block}"), block=source.removeprefix("leader "))
    return Phrase(N_("castle") if source == "castle" else N_("capital"))


def capacity(highway: bool, lead: bool, force_march: bool, largest_group: int) -> int:
    """7.3.3/7.3.6: base 1, +1 each for highway, leadership and force march, less size."""
    return 1 + highway + lead + force_march - size_penalty(largest_group)


def _check_blocks(
    state: State, comp: Components, side: str, origin: str, groups: list[Group]
) -> list[str]:
    phase = phase_of(state)
    if origin in phase["sources"]:
        raise RuleViolation(
            "7.1", N_("the stack at {where} has already moved this phase"), where=origin
        )
    if state["besieged"].get(origin) == side:
        raise RuleViolation(
            "8.9.6", N_("your blocks besieged in {where} cannot leave"), where=origin
        )
    seen: list[str] = []
    for g in groups:
        for b in g.blocks:
            if comp.blocks[b].side != side:
                raise RuleViolation("7.1", N_("{block} is not your block"), block=b)
            if b in seen:
                raise RuleViolation("7.3.1", N_("{block} is named in two groups"), block=b)
            if state["blocks"][b] != origin:
                raise RuleViolation("7.3.1", N_("{block} is not at {where}"), block=b, where=origin)
            if b in phase["arrived"]:
                rule = phase["arrived"][b]
                raise RuleViolation(
                    rule, N_("{block} arrived on the map this turn and cannot move"), block=b
                )
            if b in phase["moved"]:
                raise RuleViolation(
                    "7.3.1", N_("{block} has already been part of a move this turn"), block=b
                )
            seen.append(b)
    return seen


def _build_tree(
    comp: Components, origin: str, groups: list[Group], used: list[str], once: bool
) -> Node:
    """Merge the groups' paths into one tree. A road another stack used this phase is
    closed in both editions; `once` (the 2016 rulebook) also keeps the stack itself from
    travelling a road twice, which the first edition's 7.3.1 allows (docs/rulings.md)."""
    root = Node(origin)
    legs: dict[str, tuple] = {}
    paths = set()
    for g in groups:
        key = tuple(g.path)
        if key in paths:
            raise RuleViolation(
                "7.3.3",
                N_(
                    "two groups follow the same path {path}; "
                    "blocks that travel together form one group"
                ),
                path="-".join(key),
            )
        paths.add(key)
        node, prev = root, origin
        for i, loc in enumerate(g.path):
            if comp.road(prev, loc) is None:
                raise RuleViolation("7.3.1", N_("no road from {a} to {b}"), a=prev, b=loc)
            rk = road_key(prev, loc)
            if rk in used:
                raise RuleViolation(
                    "7.3.1", N_("road {a}-{b} already used this phase"), a=prev, b=loc
                )
            prefix = key[: i + 1]
            if once and legs.setdefault(rk, prefix) != prefix:
                raise RuleViolation(
                    "7.3.1", N_("road {a}-{b} would be traversed twice"), a=prev, b=loc
                )
            child = next((c for c in node.children if c.loc == loc), None)
            if child is None:
                child = Node(loc)
                node.children.append(child)
            child.blocks.extend(g.blocks)
            node, prev = child, loc
    return root


def _check_reach(comp: Components, origin: str, groups: list[Group], lead: str | None) -> None:
    first_leg: dict[str, int] = {}
    for g in groups:
        first_leg[g.path[0]] = first_leg.get(g.path[0], 0) + len(g.blocks)
    for g in groups:
        prev, highway = origin, True
        for loc in g.path:
            highway = highway and bool(comp.road(prev, loc))
            prev = loc
        largest = first_leg[g.path[0]]
        reach = capacity(highway, lead is not None, g.force_march is not None, largest)
        if len(g.path) > reach:
            parts: list[Phrase | str] = [Phrase(N_("base 1"))]
            if highway:
                parts.append(Phrase(N_("highway +1")))
            if lead:
                parts.append(Phrase(N_("leadership ({lead}) +1"), lead=source_words(lead)))
            if g.force_march:
                parts.append(Phrase(N_("force march +1")))
            if size_penalty(largest):
                parts.append(
                    Phrase(N_("{n} blocks -{less}"), n=largest, less=size_penalty(largest))
                )
            rule = "7.3.5" if size_penalty(largest) else "7.3.3"
            raise RuleViolation(
                rule,
                N_("{blocks} can move {reach} ({parts}), not {length}"),
                blocks=", ".join(g.blocks),
                reach=max(reach, 0),
                parts=Phrase.listed(parts),
                length=len(g.path),
            )


def move(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """One stack move (7.3), with overruns on the way (7.4) and stops at enemies (7.3.2)."""
    origin = known(
        get_str(action, "from"), comp.locations, "from", N_("unknown location '{value}'")
    )
    groups = _parse_groups(action, comp)
    leader = get_str(action, "leader", required=False)
    if leader is not None:
        known(leader, comp.blocks, "leader", N_("unknown block '{value}'"))
    spend_stack_move(state, N_("stack moves"), "7.1")
    moving = _check_blocks(state, comp, side, origin, groups)
    phase = phase_of(state)
    once = state["options"].get(EDITION) != FIRST_EDITION
    tree = _build_tree(comp, origin, groups, phase["roads"], once)
    lead = leadership(state, comp, side, origin, leader)
    _check_reach(comp, origin, groups, lead)
    marches = [g.force_march for g in groups if g.force_march]
    if marches:
        discard(state, side, marches, events, "7.3.3", "force march")
    phase["sources"].append(origin)
    phase["moved"].extend(moving)
    events.append(
        {
            "type": "move",
            "rule": "7.3",
            "side": side,
            "from": origin,
            "groups": [
                {"count": len(g.blocks), "path": g.path, "force_march": bool(g.force_march)}
                for g in groups
            ],
            "leadership": lead,
            "private": {side: {"groups": [g.blocks for g in groups]}},
        }
    )
    for child in tree.children:
        _travel(state, comp, side, origin, child, events)
        if state["result"] is not None:
            return
    forget_owners(state, comp)  # besiegers that march away lift the siege (8.9.6)


def _travel(state: State, comp: Components, side: str, prev: str, node: Node, events: list) -> None:
    phase = phase_of(state)
    roads, road = phase["roads"], road_key(prev, node.loc)
    if road not in roads:  # the first edition lets a stack travel its own road again
        roads.append(road)
    froms = phase["entered"].setdefault(node.loc, [])
    if prev not in froms:
        froms.append(prev)
    for b in node.blocks:
        state["blocks"][b] = node.loc
    note_arrival(state, comp, node.loc, side)
    claim(state, comp, node.loc, side, events)
    if has_units(state, comp, node.loc, other(side)):
        try_overrun(state, comp, node.loc, side, events)
        if state["result"] is not None:
            return
        if node.children and has_units(state, comp, node.loc, other(side)):
            raise RuleViolation(
                "7.3.2",
                N_(
                    "blocks entering {where} must stop there: "
                    "enemy units present and not overrun (7.4)"
                ),
                where=node.loc,
            )
    for child in node.children:
        _travel(state, comp, side, node.loc, child, events)
        if state["result"] is not None:
            return
