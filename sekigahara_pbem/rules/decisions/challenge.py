"""8.6: after a deployment the opponent may play a Loyalty Challenge against it, or
decline (never in a siege, 8.9.5)."""

from __future__ import annotations

from ..combat import deploy as rules
from ..components import Components
from ..plans import ASK, policy
from ..state import fight_of
from ..state_types import State
from ..vocab import CHALLENGE, COMBAT, other
from .kind import Candidates, Kind


def deciders(state: State) -> list[dict]:
    fight = fight_of(state)
    side = other(fight["deployments"][-1]["side"])
    return [{"side": side, "decision": CHALLENGE, "location": fight["location"]}]


def _loyalty(state: State, comp: Components, side: str) -> list[str]:
    return [c for c in sorted(state["cards"][side]["hand"]) if comp.cards[c].kind == "loyalty"]


def options(state: State, comp: Components, side: str) -> list[dict]:
    challenges = [{"type": "challenge", "card": c} for c in _loyalty(state, comp, side)]
    return challenges + [{"type": "decline"}]


def passive(state: State, comp: Components, side: str, legal: list[dict]) -> dict:
    """No challenge."""
    return {"type": "decline"}


def plan(state: State, comp: Components, decision: dict, plan: dict) -> Candidates:
    """A challenge when the policy calls for one and a card is in hand; a decline when it
    does not, or when no card is held."""
    fight = fight_of(state)
    pol, where = policy(plan, fight["location"], "challenge")
    if pol is None or pol == ASK:
        return
    dep = fight["deployments"][-1]
    if pol == "always":
        hit = True
    elif pol == "never":
        hit = False
    else:
        rule: dict = {"blocks": pol} if isinstance(pol, list) else pol
        impact = sum(sum(i) for i in dep["impacts"])
        hit = any(b in rule.get("blocks", []) for b in dep["blocks"]) or (
            "min_impact" in rule and impact >= rule["min_impact"]
        )
        if not hit and rule.get("otherwise", "decline") == ASK:
            return
    if hit:
        for c in _loyalty(state, comp, decision["side"]):
            yield {"type": "challenge", "card": c}, where
    yield {"type": "decline"}, where


KIND = Kind(
    name=CHALLENGE,
    step=COMBAT,
    rule="8.6.1",
    turn_rule="8.6.1",
    siege_turn_rule="8.9.5",
    actions={"challenge": rules.challenge, "decline": rules.decline},
    fields={"challenge": {"card": ("card", False)}, "decline": {}},
    deciders=deciders,
    options=options,
    passive=passive,
    plan=plan,
    forbidden=rules.immune,
)
