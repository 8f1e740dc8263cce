"""8.7, 8.9.4 C: a side that owes losses names the units it loses, in the order the rules
set (defectors, then deployed blocks, then the rest; in a siege Hideyori last, 9.1); the
engine takes them itself when there is nothing to choose."""

from __future__ import annotations

from ..combat import aftermath, combat
from ..combat.deploy import standing
from ..components import Components
from ..plans import LOSS_ORDERS, policy
from ..state import fight_of
from ..state_types import State
from ..vocab import COMBAT, LOSSES
from .kind import Candidates, Choice, Dialogue, Kind, Question

MAX_LISTED = 200  # a packet lists this many selections at most; the dialogue has them all


def deciders(state: State) -> list[dict]:
    """The side that owes losses; none once all are taken (the step then carries on, or in
    a two-party copy waits for the side that knows how)."""
    fight = fight_of(state)
    if not fight["losing"]:
        return []
    return [{"side": fight["losing"][0], "decision": LOSSES, "location": fight["location"]}]


def options(state: State, comp: Components, side: str) -> list[dict]:
    picks = aftermath.loss_choices(comp, fight_of(state), side, MAX_LISTED)
    return [{"type": "losses", "units": p} for p in picks]


def guide(state: State, comp: Components, side: str) -> Dialogue:
    """The tiers that go whole are taken; the units of the first tier that only partly goes
    are picked."""
    fight = fight_of(state)
    tiers = aftermath.loss_tiers(comp, fight, side)
    taken, tier, n = aftermath.loss_choice(tiers, fight["owed"][side])
    if tier:
        context = {"taken": taken, **standing(fight, side)}
        ask = Question("losses", tuple(Choice(u) for u in tier), n, context=context)
        taken = taken + list((yield ask))
    return {"type": "losses", "units": taken}


def forced(state: State, comp: Components, events: list) -> bool:
    fight = fight_of(state)
    if not fight["losing"]:
        if aftermath.after_losses(state, comp, fight, events):
            combat.finish_fight(state, comp, fight, events)
        return True
    side = fight["losing"][0]
    tiers = aftermath.loss_tiers(comp, fight, side)
    units = aftermath.forced_losses(tiers, fight["owed"][side])
    if units is None:
        return False
    aftermath.take_losses(state, fight, side, units, events)
    return True


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """The first legal selection: losses are compulsory."""
    return legal[0]


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """The owed units in the plan's order; `any` or `fewest_mon` (the first of them
    listed) adds the rest of the tier in its order (rules/plans.py)."""
    fight = fight_of(state)
    side = decision["side"]
    prefs, where = policy(plan, fight["location"], "losses")
    if not isinstance(prefs, list):
        return
    tiers = aftermath.loss_tiers(comp, fight, side)
    chosen, tier, owed = aftermath.loss_choice(tiers, fight["owed"][side])
    if tier:
        ranked = [u for u in prefs if u in tier]
        order = next((LOSS_ORDERS[u] for u in prefs if u in LOSS_ORDERS), None)
        if order is not None:
            rest = (u for u in tier if u not in ranked)
            ranked += sorted(rest, key=lambda u: order(comp, u))
        ranked = list(dict.fromkeys(ranked))
        if len(ranked) < owed:
            return
        chosen = chosen + ranked[:owed]
    yield {"type": "losses", "units": chosen}, where


KIND = Kind(
    name=LOSSES,
    step=COMBAT,
    rule="8.7.2",
    turn_rule="8.7.2",
    siege_turn_rule="8.9.4",
    actions={"losses": aftermath.losses},
    fields={"losses": {"units": ("unit", True)}},
    deciders=deciders,
    options=options,
    guide=guide,
    forced=forced,
    passive=passive,
    plan=plan,
)
