"""Invariants that hold after every action; the property tests and the self-play fuzzer
check them. Each returns a list of problems (empty when all is well)."""

from __future__ import annotations

import json

from .components import Components
from .views import view
from .vocab import ELIMINATED, ISHIDA, MORI_BOX, OFF_MAP, SIDES, other


def conservation(state: dict, comp: Components) -> list[str]:
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


def phase_bookkeeping(state: dict) -> list[str]:
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


def hidden_from(state: dict, comp: Components, side: str | None) -> set[str]:
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


def view_leaks(state: dict, comp: Components) -> list[str]:
    """No view contains an id its viewer may not know."""
    problems = []
    for side in (*SIDES, None):
        text = json.dumps(view(state, comp, side))
        leaked = sorted(x for x in hidden_from(state, comp, side) if f'"{x}"' in text)
        if leaked:
            problems.append(f"the {side or 'public'} view shows {leaked[:5]}")
    return problems


def check_all(state: dict, comp: Components) -> list[str]:
    return conservation(state, comp) + phase_bookkeeping(state) + view_leaks(state, comp)
