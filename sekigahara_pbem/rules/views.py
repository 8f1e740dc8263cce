"""Redacted views: what one side, or the public, may know (3.1, 3.3, 4.4, 8.7.3, 9.3).

Every report, packet and option list is built from a view, never from the full state, so
a leak can only be a bug here. Opponent stacks appear as counts; the Mōri Box, the
eliminated blocks, castle and resource control are public; hands, bags and the draw
piles are counts; the generator never appears.

`hidden_items` is the one list of what the public cannot see: the referee commits to
exactly these items in every record (protocol/commitments.py), and a two-party game names
exactly these by handles in its public form (twoparty/knowledge.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from .components import Components
from .control import castles
from .engine import pending
from .state import canonical
from .state_types import Combat, Phase, State
from .victory import points
from .vocab import BAG, ELIMINATED, MORI_BOX, RECRUIT, SIDES

# The shape of a view. Archives hash public views, so a change to what a view holds must
# change this name: verify then says which format an archive needs instead of failing on
# a hash.
VIEW_FORMAT = "sekigahara-view/2"


PUBLIC_PLACES = (ELIMINATED, MORI_BOX)  # where a block is face up for everyone
SECRET_PARTS = ("rng", "plans")  # parts of a state no public form holds


def hidden_items(state: State) -> list[tuple[str, str, str]]:
    """(kind, item, place) for everything the public cannot see now: blocks not face up
    (in a bag, the Recruitment Box, or on the map and not deployed, 8.2.1), cards in hands
    and draw piles (the pile's order from the top), and sealed decisions (6.2, 6.3)."""
    fight = state["combat"]["fight"] if state["combat"] else None
    shown = {b for d in fight.get("deployments", []) for b in d["blocks"]} if fight else set()
    items = [
        ("block", b, where)
        for b, where in sorted(state["blocks"].items())
        if where not in PUBLIC_PLACES and b not in shown
    ]
    for side in SIDES:
        piles = state["cards"][side]
        items += [("card", c, f"hand:{side}") for c in sorted(piles["hand"])]
        top_first = list(reversed(piles["deck"]))
        items += [("card", c, f"deck:{side}:{i}") for i, c in enumerate(top_first)]
    for side, value in sorted(state["sealed"].items()):
        items.append(("sealed", side, canonical(value)))
    return items


def view(state: State, comp: Components, side: str | None) -> dict:
    """The state as `side` (or the public, for None) may see it."""
    on_map, side_of = comp.locations, comp.unit_side
    stacks: dict[str, dict] = {}
    counted = {RECRUIT: dict.fromkeys(SIDES, 0), BAG: dict.fromkeys(SIDES, 0)}
    shown: dict[str, list[str]] = {MORI_BOX: [], ELIMINATED: []}
    for b, where in state["blocks"].items():  # one pass: a view is asked after every action
        if where in on_map:
            entry = stacks.get(where)
            if entry is None:
                entry = stacks[where] = dict.fromkeys(SIDES, 0)
            entry[side_of[b]] += 1
        elif where in counted:
            counted[where][side_of[b]] += 1
        elif where in shown:
            shown[where].append(b)
    for d, where in state["disks"].items():
        if where in on_map:
            stacks.setdefault(where, dict.fromkeys(SIDES, 0)).setdefault("disks", []).append(d)
    cards = state["cards"]
    held = castles(state, comp)
    v = {
        "week": state["week"],
        "turn": state["turn"],
        "step": state["step"],
        "first": state["first"],
        "active": state["active"],
        "bid_winner": state["bid_winner"],
        "result": state["result"],
        "pending": pending(state),
        "sealed": sorted(state["sealed"]),
        "stacks": {loc: stacks[loc] for loc in sorted(stacks)},
        "control": dict(sorted(state["control"].items())),
        "castles": held,
        "besieged": dict(state["besieged"]),
        "points": points(state, comp, held),
        "mori_box": sorted(shown[MORI_BOX]),
        "eliminated": sorted(shown[ELIMINATED]),
        "disks_eliminated": sorted(d for d, w in state["disks"].items() if w == ELIMINATED),
        "recruit": counted[RECRUIT],
        "bags": counted[BAG],
        "hands": {s: len(cards[s]["hand"]) for s in SIDES},
        "decks": {s: len(cards[s]["deck"]) for s in SIDES},
        "discards": {s: len(cards[s]["discard"]) for s in SIDES},
        "phase": _public_phase(state["phase"]),
        "combat": _public_combat(state["combat"]),
    }
    if side is not None:
        v["own"] = _own(state, comp, side)
    return v


def _public_phase(phase: Phase | None) -> dict | None:
    if phase is None:
        return None
    return {
        "level": phase["level"],
        "moves_left": phase["moves_left"],
        "mustered": phase["mustered"],
        "sources": list(phase["sources"]),
        "roads": list(phase["roads"]),
        "entered": {loc: list(froms) for loc, froms in phase["entered"].items()},
    }


FIGHT_PUBLIC = (
    "location",
    "attacker",
    "defender",
    "kind",
    "stage",
    "castle_side",
    "disks",
    "impact",
    "played",
    "finished",
    "owed",
    "losing",
    "lost",
    "winner",
    "entered",
    "card_deployed",
)


def _public_combat(combat: Combat | None) -> dict | None:
    """The table as both players see it: deployed blocks face up (8.2.1), cards played,
    impact, losses; undeployed blocks as counts; a card named to refute a challenge is not
    shown until it is."""
    if combat is None:
        return None
    fight = combat["fight"]
    public = None
    if fight is not None:
        keyed: Mapping[str, object] = fight  # (read by names held in a tuple)
        public = {k: keyed[k] for k in FIGHT_PUBLIC if k in keyed}
        if "forces" in fight:
            public["forces"] = {s: len(blocks) for s, blocks in fight["forces"].items()}
            public["deployments"] = [dict(d) for d in fight["deployments"]]
    return {
        "side": combat["side"],
        "resolved": list(combat["resolved"]),
        "entered": {loc: list(froms) for loc, froms in combat["entered"].items()},
        "fight": public,
    }


def _own(state: State, comp: Components, side: str) -> dict:
    on_map, side_of = comp.locations, comp.unit_side
    blocks: dict[str, list[str]] = {}
    recruit, bag, mine = [], [], set()
    for b, where in state["blocks"].items():
        if side_of[b] != side:
            continue
        mine.add(b)
        if where in on_map:
            blocks.setdefault(where, []).append(b)
        elif where == RECRUIT:
            recruit.append(b)
        elif where == BAG:
            bag.append(b)
    phase = state["phase"]
    moved, arrived = (phase["moved"], phase["arrived"]) if phase else ([], {})
    return {
        "side": side,
        "hand": sorted(state["cards"][side]["hand"]),
        "recruit": sorted(recruit),
        "bag": sorted(bag),
        "blocks": {loc: sorted(blocks[loc]) for loc in sorted(blocks)},
        "moved": sorted(b for b in moved if b in mine),
        "arrived": sorted(b for b in arrived if b in mine),
        "arrived_by": {b: r for b, r in sorted(arrived.items()) if b in mine},
        "sealed": state["sealed"].get(side),
        "plan": state["plans"].get(side),  # its own battle plan, never the opponent's
    }


def redact_event(event: dict, side: str | None) -> dict:
    """An event as `side` (or the public) may see it: the public part plus its own part."""
    out = {k: v for k, v in event.items() if k != "private"}
    if side is not None:
        out.update(event.get("private", {}).get(side, {}))
    return out
