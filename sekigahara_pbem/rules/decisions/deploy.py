"""8.2-8.5, 8.9.4: the side with the initiative deploys a block (or two with a double card)
or finishes; a side with no legal deployment finishes without being asked, and the fight
is concluded when both have finished."""

from __future__ import annotations

from ..combat import aftermath
from ..combat import deploy as rules
from ..components import Components
from ..plans import ASK, fits, holds, lead, policy, ranked
from ..state import fight_of
from ..state_types import State
from ..vocab import COMBAT, DEPLOY
from .kind import Candidates, Kind


def deciders(state: State) -> list[dict]:
    fight = fight_of(state)
    side = rules.initiative(fight)
    return [{"side": side, "decision": DEPLOY, "location": fight["location"]}]


def options(state: State, comp: Components, side: str) -> list[dict]:
    return rules.legal_deployments(state, comp, side) + [{"type": "finish"}]


def forced(state: State, comp: Components, events: list) -> bool:
    fight = fight_of(state)
    side = rules.initiative(fight)
    if side is None:
        aftermath.conclude(state, comp, fight, events)
    elif rules.can_deploy_any(state, comp, side):
        return False
    else:
        rules.declare_finished(fight, side, events, "no legal deployment")
    return True


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """Deploy nothing more."""
    return {"type": "finish"}


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """`stop: {lead: N}` reached: finish; else the first entry whose condition holds and
    that fits a legal deployment; else finish if `stop` says so."""
    fight = fight_of(state)
    side = decision["side"]
    loc = fight["location"]
    entries, where = policy(plan, loc, "deploy")
    if entries == ASK:
        return
    stop, stop_where = policy(plan, loc, "stop")
    if isinstance(stop, dict) and lead(fight, side) >= stop["lead"]:
        yield {"type": "finish"}, stop_where
    legal = rules.legal_deployments(state, comp, side) if entries else []
    for i, entry in enumerate(entries or []):
        if holds(entry.get("when", "always"), fight, side):
            fitting = [a for a in legal if fits(entry, a)]
            for act in ranked(comp, fight, side, fitting, entry.get("pick", "most")):
                yield act, f"{where}[{i}]"
    otherwise = stop.get("otherwise", "finish") if isinstance(stop, dict) else stop
    if otherwise == "finish":
        yield {"type": "finish"}, stop_where


KIND = Kind(
    name=DEPLOY,
    step=COMBAT,
    rule="8.5",
    turn_rule="8.5",
    siege_turn_rule="8.9.4",
    actions={"deploy": rules.deploy, "finish": rules.finish},
    fields={
        "deploy": {"card": ("card", False), "blocks": ("block", True), "refute": ("card", False)},
        "finish": {},
    },
    deciders=deciders,
    options=options,
    forced=forced,
    passive=passive,
    plan=plan,
)
