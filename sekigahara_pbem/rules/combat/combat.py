"""The Combat Phase (8.1, 8.9): every location where the sides meet is fought over, one at a
time in the order the phasing player declares; each is a battle or a siege.

`state["combat"]` holds the phase: the phasing side, the locations already resolved, where
the phasing side's blocks entered each location this turn (for retreats, 8.8.2-8.8.3),
combats a retreat has caused (8.8.5, resolved at once) and the fight in progress:

  location, attacker, defender, kind (battle | siege | None until the castle's owner has
  chosen), stage (the decision it waits for), castle_side (who controlled the castle before
  combat, 8.8.4), entered, forces {side: blocks}, disks (inside, in a siege), deployments,
  impact {side: n}, played {side: cards}, finished, card_deployed (8.2.4), owed, losing,
  lost {side: units}, winner.

After every decision the engine carries the combat on as far as it goes without a choice,
through each decision kind's `forced` step (rules/decisions/): a single location left is
declared, a side with no legal deployment finishes, forced losses and retreats are taken.
"""

from __future__ import annotations

from ..components import Components
from ..control import castle_controller, claim, forget_owners
from ..cycle.cycle import next_phase
from ..fields import get_str, known
from ..movement.overrun import try_overrun
from ..state import blocks_at, combat_of, contested, disks_at, fight_of, has_units, phase_of
from ..state_types import Fight, State
from ..vocab import (
    BATTLE,
    CASTLE,
    COMBAT,
    DEPLOY,
    ISHIDA,
    MORI_BOX,
    N_,
    SIDES,
    SIEGE,
    TOKUGAWA,
    Malformed,
    Phrase,
    RuleViolation,
    other,
)
from . import aftermath, deploy


def end_movement(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """The movement phase ends; combat follows (8.1)."""
    phase = phase_of(state)
    if phase["level"] is None:
        raise RuleViolation("7.1", N_("choose the movement level (even 'none') before ending"))
    events.append({"type": "end_movement", "rule": "7.1", "side": side})
    state["step"] = COMBAT
    state["combat"] = {
        "side": side,
        "resolved": [],
        "entered": {loc: list(froms) for loc, froms in phase["entered"].items()},
        "queue": [],
        "fight": None,
    }


def to_fight(state: State, comp: Components) -> list[str]:
    """8.1: locations where the sides meet that have not been fought over this phase."""
    done = combat_of(state)["resolved"]
    return [loc for loc in contested(state, comp) if loc not in done]


def declare(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.1: the phasing player names the next location to fight over."""
    combat = combat_of(state)
    if combat["fight"] is not None:
        raise RuleViolation(
            "8.1", N_("the combat at {where} is not over"), where=combat["fight"]["location"]
        )
    loc = known(
        get_str(action, "location"), comp.locations, "location", N_("unknown location '{value}'")
    )
    left = to_fight(state, comp)
    if loc not in left:
        raise RuleViolation(
            "8.1",
            N_("no combat to declare at {where}; still to fight: {left}"),
            where=loc,
            left=", ".join(left) or Phrase(N_("none")),
        )
    start_fight(state, comp, loc, side, combat["entered"].get(loc, []), events)


def choose_castle(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.9.2: the castle's owner, two blocks or fewer, fights inside (a siege) or outside."""
    fight = deploy.fight_at(state, CASTLE, "8.9.2", N_("choice of inside or outside"))
    inside = action.get("inside")
    if not isinstance(inside, bool):
        raise Malformed("inside", N_("expected true (inside the castle) or false (outside)"))
    events.append(
        {
            "type": "castle_choice",
            "rule": "8.9.2",
            "location": fight["location"],
            "side": side,
            "inside": inside,
        }
    )
    if inside:
        _inside(state, comp, fight, events)
    else:
        _begin(state, comp, fight, BATTLE, events)


def start_fight(
    state: State, comp: Components, loc: str, attacker: str, entered: list[str], events: list
) -> None:
    """Combat is declared at `loc`: the Mōri Box joins at Osaka (9.3), then the castle's
    owner decides inside or outside (8.9.2) unless its numbers decide for it."""
    combat = combat_of(state)
    combat["resolved"].append(loc)
    events.append({"type": "declare", "rule": "8.1", "location": loc, "attacker": attacker})
    if loc == comp.mori_entry and attacker == TOKUGAWA:
        _mori_joins(state, comp, loc, events)
    if not all(has_units(state, comp, loc, s) for s in SIDES):
        return  # overrun as the Mōri blocks arrived
    owner = castle_controller(state, comp, loc)
    fight: Fight = {
        "location": loc,
        "attacker": attacker,
        "defender": other(attacker),
        "kind": None,
        "stage": CASTLE,
        "castle_side": owner,
        "entered": list(entered),
    }
    combat["fight"] = fight
    if owner is None:
        _begin(state, comp, fight, BATTLE, events)
        return
    inside = len(blocks_at(state, comp, loc, owner))
    if inside == 0:  # 8.9.3: a disk is always inside
        _inside(state, comp, fight, events)
    elif inside > aftermath.CASTLE_LIMIT:  # 8.9.2: must fight outside
        _begin(state, comp, fight, BATTLE, events)


def _mori_joins(state: State, comp: Components, loc: str, events: list) -> None:
    """9.3: when Tokugawa attacks Osaka, every block in the Mōri Box appears there."""
    box = blocks_at(state, comp, MORI_BOX)
    if not box:
        return
    for b in box:
        state["blocks"][b] = loc
    if state["active"] == state["first"]:  # Ishida moves later this turn: not these (9.3)
        phase_of(state)["arrived"].update(dict.fromkeys(box, "9.3"))
    events.append({"type": "mori", "rule": "9.3", "side": ISHIDA, "to": loc, "blocks": box})
    claim(state, comp, loc, ISHIDA, events)
    try_overrun(state, comp, loc, ISHIDA, events)


def _inside(state: State, comp: Components, fight: Fight, events: list) -> None:
    """8.9.2: the owner stays inside. If it is the attacker, nothing happens here this
    phase; otherwise the attacker lays siege."""
    if fight["castle_side"] == fight["attacker"]:
        events.append(
            {
                "type": "no_combat",
                "rule": "8.9.2",
                "location": fight["location"],
                "side": fight["attacker"],
            }
        )
        _close(state, comp, fight)
    else:
        _begin(state, comp, fight, SIEGE, events)


def _begin(state: State, comp: Components, fight: Fight, kind: str, events: list) -> None:
    loc, att, dfn = fight["location"], fight["attacker"], fight["defender"]
    fight.update(
        {
            "kind": kind,
            "stage": DEPLOY,
            "forces": {s: blocks_at(state, comp, loc, s) for s in (att, dfn)},
            "disks": disks_at(state, comp, loc, dfn) if kind == SIEGE else [],
            "deployments": [],
            "impact": {att: 0, dfn: 0},
            "played": {att: [], dfn: []},
            "finished": [],
            "card_deployed": [],
            "lost": {att: [], dfn: []},
            "winner": None,
        }
    )
    events.append(
        {
            "type": kind,
            "rule": "8.9.4" if kind == SIEGE else "8.2.1",
            "location": loc,
            "attacker": att,
            "defender": dfn,
            "forces": {s: len(fight["forces"][s]) for s in (att, dfn)},
            "disks": list(fight["disks"]),
        }
    )


def _close(state: State, comp: Components, fight: Fight) -> None:
    """The fight is over: record who is besieged where the sides still meet (8.9.4 E)."""
    loc = fight["location"]
    combat_of(state)["fight"] = None
    forget_owners(state, comp)
    if all(has_units(state, comp, loc, s) for s in SIDES):
        owner = castle_controller(state, comp, loc)
        if owner is not None:
            state["besieged"][loc] = owner


def finish_fight(state: State, comp: Components, fight: Fight, events: list) -> None:
    if state["result"] is not None:
        return
    aftermath.replenish(state, comp, fight, events)
    _close(state, comp, fight)


def end_phase(state: State, comp: Components, events: list) -> None:
    state["combat"] = None
    forget_owners(state, comp)
    next_phase(state, comp, events)


def retreat(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.8: the loser's retreat, then replenishment (8.10)."""
    aftermath.retreat(state, comp, side, action, events)
    finish_fight(state, comp, fight_of(state), events)
