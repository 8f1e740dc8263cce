"""Invariants that hold after every action; the property tests and the self-play fuzzer
check them. Each returns a list of problems (empty when all is well)."""

from __future__ import annotations

import json
import re

from .components import Components
from .engine import apply, pending
from .state import canonical, sides_at
from .state_types import State
from .views import view
from .vocab import ELIMINATED, ISHIDA, MORI_BOX, OFF_MAP, SIDES, Malformed, RuleViolation, other

QUOTED = re.compile(r'"([^"\\]*)"')


def conservation(state: State, comp: Components) -> list[str]:
    """Every block, disk and card is in exactly one legal place."""
    problems = []
    if set(state["blocks"]) != set(comp.blocks):
        problems.append("the set of blocks differs from the manifest")
    for b, where in state["blocks"].items():
        if where not in comp.locations and where not in OFF_MAP:
            problems.append(f"{b} is at unknown place {where!r}")
        if where == MORI_BOX and comp.blocks[b].side != ISHIDA:
            problems.append(f"{b} is in the Mōri Box")
    for d, where in state["disks"].items():
        if where not in (comp.disks[d].location, ELIMINATED):
            problems.append(f"disk {d} left its castle ({where})")
    fight = state["combat"]["fight"] if state["combat"] else None
    for side in SIDES:
        piles = state["cards"][side]
        held = piles["deck"] + piles["hand"] + piles["discard"]
        if fight is not None and "played" in fight:
            held += fight["played"][side]
        if sorted(held) != sorted(comp.deck(side)):
            problems.append(f"{side}'s cards are not exactly its deck across pile/hand/discard")
    return problems


def phase_bookkeeping(state: State) -> list[str]:
    """7.3.1: no road twice in a phase, no block in two moves."""
    phase = state["phase"]
    if phase is None:
        return []
    problems = []
    if len(set(phase["roads"])) != len(phase["roads"]):
        problems.append("a road was used twice in one movement phase (7.3.1)")
    if len(set(phase["moved"])) != len(phase["moved"]):
        problems.append("a block took part in two moves (7.3.1)")
    return problems


def combat_bookkeeping(state: State, comp: Components) -> list[str]:
    """Impact totals add up from the deployments (8.3, 8.4, 8.6.2), and a side marked
    besieged sits in a castle with the enemy outside (8.9.6)."""
    problems = []
    for loc, side in state["besieged"].items():
        if comp.locations[loc].castle is None:
            problems.append(f"{side} is besieged at {loc}, which has no castle")
        elif sides_at(state, comp, loc) != set(SIDES):
            problems.append(f"{side} is besieged at {loc}, where the sides do not meet")
    fight = state["combat"]["fight"] if state["combat"] else None
    if fight is None or "deployments" not in fight:
        return problems
    total = dict.fromkeys(fight["impact"], 0)
    for d in fight["deployments"]:
        for mon, same, special in d["impacts"]:
            total[d["for"]] += mon + same + (special if d["for"] == d["side"] else 0)
    if total != fight["impact"]:
        problems.append(f"impact {fight['impact']} does not add up to {total}")
    return problems


def hidden_from(state: State, comp: Components, side: str | None) -> set[str]:
    """Ids `side` (None: the public) must not see: the other side's blocks that are not
    public (eliminated, in the Mōri Box, or face up in the combat now, 8.2.1) and its hand;
    for the public, both sides'."""
    sides = SIDES if side is None else (other(side),)
    fight = state["combat"]["fight"] if state["combat"] else None
    shown = {b for d in fight.get("deployments", []) for b in d["blocks"]} if fight else set()
    hidden = set()
    for s in sides:
        hidden |= {
            b
            for b in comp.side_blocks(s)
            if state["blocks"][b] not in (ELIMINATED, MORI_BOX) and b not in shown
        }
        hidden |= set(state["cards"][s]["hand"])
    return hidden


def view_leaks(state: State, comp: Components) -> list[str]:
    """No view contains an id its viewer may not know, and no view but its owner's depends
    on a side's battle plan. (The owner's own plan is left out of the id check: it may
    name enemy blocks, in the owner's own words.)"""
    problems = []
    views = {side: view(state, comp, side) for side in (*SIDES, None)}  # each asked once
    for side, seen in views.items():
        if side is not None:
            seen = {**seen, "own": {k: v for k, v in seen["own"].items() if k != "plan"}}
        leaked = sorted(hidden_from(state, comp, side) & _strings(seen))
        if leaked:
            problems.append(f"the {side or 'public'} view shows {leaked[:5]}")
    for owner in state["plans"]:
        unplanned: State = {
            **state,
            "plans": {s: p for s, p in state["plans"].items() if s != owner},
        }
        for side in (other(owner), None):
            if views[side] != view(unplanned, comp, side):
                problems.append(f"the {side or 'public'} view shows something of {owner}'s plan")
    return problems


def _strings(data: object) -> set[str]:
    """Every string in a JSON-compatible structure, keys included (ids hold no quotes)."""
    return set(QUOTED.findall(json.dumps(data, ensure_ascii=False)))


def plan_answers(
    comp: Components, before: State, after: State, side: str, action: dict, events: list
) -> list[str]:
    """Every decision a battle plan answered during one apply was asked of that side and
    legal: replayed by hand on the state without plans, the same answers are accepted
    and lead to the same state."""
    markers = [e for e in events if e["type"] == "by_plan"]
    if not markers:
        return []
    state: State = {**before, "plans": {}}
    try:
        if action["type"] != "plan":
            state, _ = apply(state, comp, side, action)
        for m in markers:
            who = m["side"]
            asked = [d["decision"] for d in pending(state) if d["side"] == who]
            if asked != [m["decision"]]:
                return [f"{who}'s plan answered {m['decision']}, which was not asked of it"]
            state, _ = apply(state, comp, who, m["private"][who]["action"])
    except (RuleViolation, Malformed) as exc:
        return [f"an answer by plan was illegal: {exc}"]
    if canonical({**state, "plans": {}}) != canonical({**after, "plans": {}}):
        return ["the answers by plan do not replay to the same state"]
    return []


def check_all(state: State, comp: Components) -> list[str]:
    return (
        conservation(state, comp)
        + phase_bookkeeping(state)
        + combat_bookkeeping(state, comp)
        + view_leaks(state, comp)
    )
