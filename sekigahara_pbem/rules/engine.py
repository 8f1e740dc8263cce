"""The engine's front door: who must decide what, and applying a decision.

`apply` never changes the state it is given: it works on a copy and returns the new state
and the events, or raises `RuleViolation` / `Malformed` with the old state untouched.
"""

from __future__ import annotations

from collections.abc import Callable

from . import aftermath, combat, cycle, deploy
from .combat import then_advance
from .components import Components
from .mori import bring_mori
from .movement import choose_level, move
from .muster import muster
from .notation import normalise
from .plans import file_plan, follow
from .state import clone
from .victory import resign
from .vocab import (
    BID,
    CHOOSE_FIRST,
    COMBAT,
    DISCARD,
    MOVEMENT,
    OVER,
    SIDES,
    Malformed,
    RuleViolation,
)

Handler = Callable[[dict, Components, str, dict, list], None]

HANDLERS: dict[str, dict[str, Handler]] = {
    DISCARD: {"discard": cycle.submit_discard},
    BID: {"bid": cycle.submit_bid},
    CHOOSE_FIRST: {"choose_first": cycle.choose_first},
    MOVEMENT: {
        "level": choose_level,
        "move": move,
        "muster": muster,
        "mori": bring_mori,
        "end_movement": combat.end_movement,
    },
    COMBAT: {
        "declare": then_advance(combat.declare),
        "castle": then_advance(combat.choose_castle),
        "deploy": then_advance(deploy.deploy),
        "finish": then_advance(deploy.finish),
        "challenge": then_advance(deploy.challenge),
        "decline": then_advance(deploy.decline),
        "losses": then_advance(aftermath.losses),
        "retreat": then_advance(combat.retreat),
    },
}

# Actions a side may take whether or not a decision is asked of it.
ANYTIME: dict[str, Handler] = {"resign": resign, "plan": file_plan}

STEP_RULES = {DISCARD: "6.2", BID: "6.3", CHOOSE_FIRST: "6.3", MOVEMENT: "7.1", COMBAT: "8.1"}
WHOSE_RULES = {DISCARD: "6.2", BID: "6.3", CHOOSE_FIRST: "6.3", MOVEMENT: "6.4"}


def pending(state: dict) -> list[dict]:
    """The decisions the game waits for: both sides at once for sealed discards and bids."""
    step = state["step"]
    if step == OVER:
        return []
    if step in (DISCARD, BID):
        decisions = []
        for side in cycle.awaiting(state):
            d = {"side": side, "decision": step}
            if step == DISCARD:
                d["count"] = cycle.discard_count(state, side)
            decisions.append(d)
        return decisions
    if step == COMBAT:
        return [combat.decision(state)]
    return [{"side": state["active"], "decision": step}]


def apply(state: dict, comp: Components, side: str, action: object) -> tuple[dict, list]:
    """Apply one decision of `side`; raise RuleViolation or Malformed if it cannot be."""
    if side not in SIDES:
        raise Malformed("side", f"unknown side '{side}'")
    if not isinstance(action, dict):
        raise Malformed("action", "expected a mapping with a 'type'")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise Malformed("type", "missing or not text")
    step = state["step"]
    if step == OVER:
        raise RuleViolation("2", "the game is over")
    if kind in ANYTIME:
        new = clone(state)
        events: list = []
        ANYTIME[kind](new, comp, side, action, events)
        follow(new, comp, events, HANDLERS[COMBAT])  # battle plans answer what they cover
        return new, events
    handler = HANDLERS.get(step, {}).get(kind)
    if handler is None:
        allowed = ", ".join(HANDLERS.get(step, {})) or "nothing"
        raise RuleViolation(
            STEP_RULES.get(step, "6.1"),
            f"'{kind}' is not possible now: the game is at the {step} step (expected {allowed})",
        )
    if not any(d["side"] == side for d in pending(state)):
        waiting = ", ".join(sorted({d["side"] for d in pending(state)}))
        rule = combat.whose_rule(state, kind) if step == COMBAT else WHOSE_RULES[step]
        raise RuleViolation(rule, f"not {side}'s decision now; waiting for {waiting}")
    action = normalise(state, comp, side, action)  # friendly names -> ids (docs/protocol.md)
    new = clone(state)
    events = []
    handler(new, comp, side, action, events)
    follow(new, comp, events, HANDLERS[COMBAT])  # battle plans answer what they cover
    return new, events
