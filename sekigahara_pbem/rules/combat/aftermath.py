"""After the deployments: the result, losses (8.7, 8.9.4), retreats (8.8) and card
replenishment (8.10).

Each step that needs a choice has a check of what is forced, so the combat procedure
(combat.py) asks a player only when there really is a choice.
"""

from __future__ import annotations

from itertools import combinations
from typing import cast

from ..cards import draw
from ..components import Components
from ..control import claim, note_arrival
from ..fields import get_str, get_str_list, known
from ..movement.overrun import try_overrun
from ..state import combat_of, has_units
from ..state_types import Fight, State
from ..victory import check_instant
from ..vocab import (
    BATTLE,
    ELIMINATED,
    LOSSES,
    N_,
    RETREAT,
    SIEGE,
    Malformed,
    RuleViolation,
    other,
)
from .deploy import fight_at
from .impact import battle_losses, siege_losses

CASTLE_LIMIT = 2  # 8.8.4, 8.9.1: blocks that fit inside a castle


def conclude(state: State, comp: Components, fight: Fight, events: list) -> None:
    """The deployments are over: who won (a tie favours the defender, 8.2.1) and how many
    units each side owes (8.7.1, 8.9.4 B), never more than it has."""
    att, dfn = fight["attacker"], fight["defender"]
    impact = fight["impact"]
    if fight["kind"] == BATTLE:
        winner = att if impact[att] > impact[dfn] else dfn
        fight["winner"] = winner
        owed = {
            s: min(battle_losses(impact[other(s)], s != winner), len(fight["forces"][s]))
            for s in (att, dfn)
        }
        events.append(
            {
                "type": "battle_result",
                "rule": "8.7.1",
                "location": fight["location"],
                "winner": winner,
                "impact": dict(impact),
                "losses": owed,
            }
        )
    else:
        inside = len(fight["forces"][dfn]) + len(fight["disks"])
        owed = {att: 0, dfn: min(siege_losses(impact[att]), inside)}
        events.append(
            {
                "type": "siege_result",
                "rule": "8.9.4",
                "location": fight["location"],
                "impact": dict(impact),
                "losses": owed,
            }
        )
    fight["owed"] = owed
    fight["losing"] = [s for s in (att, dfn) if owed[s] > 0]  # 8.7.2: attacker first
    fight["stage"] = LOSSES


def loss_tiers(comp: Components, fight: Fight, side: str) -> list[list[str]]:
    """The order losses are taken in. 8.7.2: blocks that defected, then blocks deployed,
    then the rest. In a siege the defender chooses freely among blocks and disks, except
    that Hideyori falls last (9.1) - the Sanada disk may take any loss (9.2)."""
    if fight["kind"] == SIEGE:
        disks = fight["disks"]
        last = [d for d in disks if comp.disks[d].instant_loss]
        return [fight["forces"][side] + [d for d in disks if d not in last], last]
    defected: list[str] = []
    deployed: list[str] = []
    for d in fight["deployments"]:
        if d["side"] == side:
            (deployed if d["for"] == side else defected).extend(d["blocks"])
    rest = [b for b in fight["forces"][side] if b not in defected and b not in deployed]
    return [defected, deployed, rest]


def loss_choice(tiers: list[list[str]], owed: int) -> tuple[list[str], list[str], int]:
    """8.7.2: the units lost whatever is chosen (whole tiers, in order), then the tier the
    rest are chosen from and how many of it (an empty tier: nothing to choose)."""
    taken: list[str] = []
    for tier in tiers:
        if owed == 0:
            break
        if len(tier) > owed:
            return taken, tier, owed
        taken += tier
        owed -= len(tier)
    return taken, [], 0


def forced_losses(tiers: list[list[str]], owed: int) -> list[str] | None:
    """The losses if there is no choice to make, else None."""
    taken, tier, _ = loss_choice(tiers, owed)
    return None if tier else taken


def loss_choices(comp: Components, fight: Fight, side: str, limit: int) -> list[list[str]]:
    """Up to `limit` legal selections (for option lists)."""
    taken, tier, n = loss_choice(loss_tiers(comp, fight, side), fight["owed"][side])
    picks = combinations(tier, n)
    return [taken + list(p) for _, p in zip(range(limit), picks, strict=False)]


def losses(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.7.2 / 8.9.4 C: the side names the units it loses."""
    fight = fight_at(state, LOSSES, "8.7.2", N_("choice of losses"))
    units = get_str_list(action, "units")
    for u in units:
        if u not in comp.blocks and u not in comp.disks:
            raise Malformed("units", N_("unknown block or disk '{unit}'"), unit=u)
    owed = fight["owed"][side]
    rule = "8.9.4" if fight["kind"] == SIEGE else "8.7.2"
    if len(units) != owed or len(set(units)) != len(units):
        raise RuleViolation(
            rule, N_("units to lose: name exactly {owed}, all different"), owed=owed
        )
    tiers = loss_tiers(comp, fight, side)
    eligible = {u for tier in tiers for u in tier}
    for u in units:
        if u not in eligible:
            raise RuleViolation(
                rule, N_("{unit} is not one of your units that can be lost here"), unit=u
            )
    for i, tier in enumerate(tiers[:-1]):
        later = {u for t in tiers[i + 1 :] for u in t}
        if any(u in later for u in units) and not set(tier) <= set(units):
            if fight["kind"] == SIEGE:
                raise RuleViolation("9.1", N_("Hideyori is the last unit lost in a siege of Osaka"))
            raise RuleViolation(
                "8.7.2",
                N_("lose blocks that defected first, then blocks that deployed, then others"),
            )
    take_losses(state, fight, side, units, events)


def take_losses(state: State, fight: Fight, side: str, units: list[str], events: list) -> None:
    """8.7.3: lost units leave the map for good, shown to both players."""
    for u in units:
        pool = state["blocks"] if u in state["blocks"] else state["disks"]
        pool[u] = ELIMINATED
    fight["lost"][side] = list(units)
    fight["losing"].remove(side)
    events.append(
        {
            "type": "losses",
            "rule": "8.9.4" if fight["kind"] == SIEGE else "8.7.2",
            "location": fight["location"],
            "side": side,
            "units": list(units),
        }
    )


def after_losses(state: State, comp: Components, fight: Fight, events: list) -> bool:
    """2.1 once both sides' losses are taken (both protagonists dead: Ishida wins); then the
    loser of a battle retreats (8.8) or a siege ends. True if the fight is over."""
    if check_instant(state, comp, events):
        return True
    loc = fight["location"]
    if fight["kind"] == BATTLE:
        if _remaining(state, fight):
            fight["stage"] = RETREAT
            return False
    elif not has_units(state, comp, loc, fight["defender"]):
        events.append(
            {"type": "castle_falls", "rule": "8.9.4", "location": loc, "side": fight["attacker"]}
        )
    return True


def loser(fight: Fight) -> str:
    """The side that lost a battle, once `conclude` has named the winner (a retreat comes
    only after a battle's losses)."""
    return other(cast(str, fight["winner"]))


def _remaining(state: State, fight: Fight) -> list[str]:
    return [b for b in fight["forces"][loser(fight)] if state["blocks"][b] == fight["location"]]


def retreat_options(state: State, comp: Components, fight: Fight) -> tuple[list[str], bool]:
    """8.8.1-8.8.4: the adjacent locations the loser may retreat to, and whether it may
    leave up to two blocks in the castle (only the side that controlled it before)."""
    beaten = loser(fight)
    loc = fight["location"]
    near = list(comp.adjacent[loc])
    if beaten == fight["attacker"]:  # 8.8.2
        allowed = [n for n in near if n in fight["entered"]] or near
    else:  # 8.8.3
        allowed = [
            n
            for n in near
            if n not in fight["entered"] and not has_units(state, comp, n, fight["attacker"])
        ] or near
    return allowed, fight["castle_side"] == beaten


def forced_retreat(state: State, comp: Components, fight: Fight) -> str | None:
    allowed, castle = retreat_options(state, comp, fight)
    return allowed[0] if len(allowed) == 1 and not castle else None


def retreat(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """8.8: the whole remaining force to one adjacent location, up to two into the castle."""
    fight = fight_at(state, RETREAT, "8.8.1", N_("retreat"))
    to = get_str(action, "to", required=False)
    stay = get_str_list(action, "castle", required=False)
    if to is not None:
        known(to, comp.locations, "to", N_("unknown location '{value}'"))
    do_retreat(state, comp, fight, to, stay, events)


def do_retreat(
    state: State, comp: Components, fight: Fight, to: str | None, stay: list[str], events: list
) -> None:
    beaten, loc = loser(fight), fight["location"]
    force = _remaining(state, fight)
    allowed, castle = retreat_options(state, comp, fight)
    if stay and not castle:
        raise RuleViolation(
            "8.8.4", N_("the castle at {where} is not yours to retreat into"), where=loc
        )
    if len(stay) > CASTLE_LIMIT or len(set(stay)) != len(stay):
        raise RuleViolation(
            "8.8.4", N_("at most {n} different blocks stay in the castle"), n=CASTLE_LIMIT
        )
    if any(b not in force for b in stay):
        raise RuleViolation("8.8.4", N_("only blocks of the retreating force can enter the castle"))
    going = [b for b in force if b not in stay]
    if going and to is None and stay:
        raise RuleViolation(
            "8.8.4",
            N_("the blocks that do not stay in the castle retreat elsewhere as a group: "
               "say where ('to')"),
        )  # fmt: skip
    if going and to is None:
        raise RuleViolation("8.8.1", N_("say where the retreating force goes ('to')"))
    if going and to not in comp.adjacent[loc]:
        raise RuleViolation("8.8.1", N_("{to} is not next to {where} by road"), to=to, where=loc)
    if going and to not in allowed:
        rule = "8.8.2" if beaten == fight["attacker"] else "8.8.3"
        raise RuleViolation(
            rule,
            N_("retreat to one of {places}, not {to}"),
            places=", ".join(sorted(allowed)),
            to=to,
        )
    if not going and to is not None:
        raise RuleViolation("8.8.4", N_("every block stays in the castle; there is nowhere to go"))
    dest = to if going else None  # None exactly when no block goes (checked above)
    joined = dest is not None and has_units(state, comp, dest, beaten)
    for b in going:
        state["blocks"][b] = to
    events.append(
        {
            "type": "retreat",
            "rule": "8.8",
            "location": loc,
            "side": beaten,
            "to": dest,
            "count": len(going),
            "castle": len(stay),
            "private": {beaten: {"blocks": going, "castle_blocks": stay}},
        }
    )
    if stay:
        state["castle_owner"][loc] = beaten
    if dest is not None:
        _arrive(state, comp, dest, beaten, loc, joined, events)
    fight["stage"] = None


def _arrive(
    state: State, comp: Components, to: str, side: str, came_from: str, joined: bool, events: list
) -> None:
    """8.8.5, 7.4.1: a retreat into enemy units overruns them or is overrun (with every
    block there counting); otherwise it joins a fight already there, or becomes a new
    combat with the retreating blocks as attacker."""
    note_arrival(state, comp, to, side)
    claim(state, comp, to, side, events)
    if not has_units(state, comp, to, other(side)):
        return
    if try_overrun(state, comp, to, side, events) or try_overrun(
        state, comp, to, other(side), events
    ):
        return
    if joined:
        return
    combat_of(state)["queue"].append({"location": to, "attacker": side, "entered": [came_from]})


def replenish(state: State, comp: Components, fight: Fight, events: list) -> None:
    """8.10: played cards are discarded and as many drawn; after a battle each side draws one
    more per two blocks it lost, after a siege the defender one per block (not disk) lost."""
    for side in (fight["attacker"], fight["defender"]):
        played = fight["played"][side]
        if played:
            state["cards"][side]["discard"].extend(played)
            events.append(
                {
                    "type": "discard",
                    "rule": "8.10",
                    "side": side,
                    "cards": list(played),
                    "why": "played in combat",
                }
            )
        blocks_lost = sum(1 for u in fight["lost"][side] if u in comp.blocks)
        extra = blocks_lost // 2 if fight["kind"] == BATTLE else blocks_lost
        draw(state, side, len(played) + extra, events, "8.10")
        fight["played"][side] = []
