"""The engine's front door: who must decide what, and applying a decision.

`apply` never changes the state it is given: it works on a copy and returns the new state
and the events, or raises `RuleViolation` / `Malformed` with the old state untouched
(`play` does the same to the state itself, for playouts that own their copy). `handle`
and `carry_on` step a side's copy that may lack the other side's secrets, stopping where
a hidden value is needed: the same engine for both game modes. What
each decision means lives in its own module of rules/decisions/; this module only loops
over that table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from ..refusal import quoted, side_words, sides_waiting
from .components import Components
from .decisions import STEP_ACTIONS, Handler, Kind, advance, current, step_rule, turn_rule
from .notation import normalise
from .plans import file_plan
from .state import clone
from .state_types import State
from .victory import forfeit as victory_forfeit
from .victory import resign
from .vocab import ANYTIME_ACTIONS, N_, OVER, SIDES, Malformed, Phrase, RuleViolation, Unknown

# Actions a side may take whether or not a decision is asked of it, with their handlers.
ANYTIME: dict[str, Handler] = dict(zip(ANYTIME_ACTIONS, (resign, file_plan), strict=True))

MAX_ANSWERS = 1000  # answers by plan after one decision; each one moves the combat on


def pending(state: State) -> list[dict]:
    """The decisions the game waits for: both sides at once for sealed discards and bids."""
    kind = current(state)
    return [] if kind is None else kind.deciders(state)


def apply(state: State, comp: Components, side: str, action: object) -> tuple[State, list]:
    """Apply one decision of `side`; raise RuleViolation or Malformed if it cannot be."""
    new = clone(state)
    return new, play(new, comp, side, action)


def play(
    state: State, comp: Components, side: str, action: object, *, listed: bool = False
) -> list:
    """Apply one decision of `side` to `state` itself and return the events: for a caller
    that has a copy of its own to spend, such as a playout (a clone costs as much as a
    simple action). If it raises RuleViolation or Malformed, `state` may be half changed
    and must be thrown away; `apply` keeps the caller's state whole. `listed`: the action
    is one of `options`, which name everything by id, so friendly names are not read
    (a name would be refused by the rule that reads it, as unknown)."""
    if side not in SIDES:
        raise Malformed("side", N_("unknown side '{side}'"), side=side)
    if not isinstance(action, dict):
        raise Malformed("action", N_("expected a mapping with a 'type'"))
    kind = action.get("type")
    if not isinstance(kind, str):
        raise Malformed("type", N_("missing or not text"))
    if state["step"] == OVER:
        raise RuleViolation("2", N_("the game is over"))
    events: list = []
    if kind in ANYTIME:
        ANYTIME[kind](state, comp, side, action, events)
    else:
        owner = asked_kind(state, side, kind)
        if not listed:  # friendly names -> ids (docs/protocol.md)
            action = normalise(state, comp, side, action)
        act(state, comp, owner, side, action, events)
    follow(state, comp, events)  # battle plans answer what they cover
    return events


def forfeit(state: State, side: str, rule: str, reason: str) -> tuple[State, list]:
    """The game lost by `side` for a deadline of its protocol (victory.forfeit): not an
    action a player can send (no turn file holds it, and it may end a game the rules
    already ended), so apart from `apply`; the same result shape as every other ending."""
    new = clone(state)
    events: list = []
    victory_forfeit(new, side, rule, reason, events)
    return new, events


def asked_kind(state: State, side: str, kind: str) -> Kind:
    """The kind of decision an action of type `kind` by `side` answers now; RuleViolation
    if the step takes no such action or the decision is not the side's."""
    step = state["step"]
    owner = STEP_ACTIONS.get(step, {}).get(kind)
    if owner is None:
        allowed = ", ".join(STEP_ACTIONS.get(step, {})) or Phrase(N_("nothing"))
        raise RuleViolation(
            step_rule(step),
            N_("'{kind}' is not possible now: the game is at the {step} step (expected {allowed})"),
            kind=quoted(kind)[1:-1],  # the message quotes it: its repr, escapes kept (a LF)
            step=step,
            allowed=allowed,
        )
    owner.forbidden(state, side)
    now = cast(Kind, current(state))  # not None: the game is not over, or no kind takes `kind`
    asked = now.deciders(state)
    if not any(d["side"] == side for d in asked):
        rule = turn_rule(state, now, kind)
        raise RuleViolation(
            rule,
            N_("not {side}'s decision now; waiting for {waiting}"),
            side=side_words(side),
            waiting=sides_waiting(asked),
        )
    return owner


def act(state: State, comp: Components, kind: Kind, side: str, action: dict, events: list) -> None:
    """Apply an action in place through its kind's handler, then everything that follows
    without a choice."""
    kind.actions[action["type"]](state, comp, side, action, events)
    advance(state, comp, events)


def follow(state: State, comp: Components, events: list) -> None:
    """After a decision: while the decision now asked is answered by its side's battle plan
    (rules/plans.py), apply the answer in place and mark it in the events as played by
    plan."""
    for _ in range(MAX_ANSWERS):
        kind = current(state)
        if kind is None:  # the game is over
            return
        asked = kind.deciders(state)
        if len(asked) != 1:  # the sides decide at once (no plans)
            return
        plan = state["plans"].get(asked[0]["side"])
        if plan is None or not _answer(state, comp, kind, asked[0], plan, events):
            return


def _answer(
    state: State, comp: Components, kind: Kind, decision: dict, plan: dict, events: list
) -> bool:
    """Apply the first of the plan's answers that the rules accept; False if there is none
    (the decision is asked). An illegal answer is passed over, never an error."""
    side = decision["side"]
    for action, entry in kind.plan(state, comp, decision, plan):
        trial = clone(state)
        found: list = []
        try:
            act(trial, comp, kind, side, action, found)
        except (RuleViolation, Malformed):
            continue
        whole = cast(dict, state)  # emptied and filled with the trial's keys, as any dict
        whole.clear()
        whole.update(trial)
        marker = {
            "type": "by_plan",
            "side": side,
            "decision": decision["decision"],
            "private": {side: {"entry": entry, "action": action}},
        }
        if "location" in decision:
            marker["location"] = decision["location"]
        events.append(marker)
        events.extend(found)
        return True
    return False


# Stepping one side's copy of the state, where it may not hold every value (a two-party
# game: each side's copy holds only its own secrets, docs/two-party.md): each step runs on
# a copy and is kept only if it completes, so a run stops before the first step the copy
# cannot decide (`Unknown`) and says what it lacked. A run can also be held to a number
# of steps, to retrace another side's run.

MAX_STEPS = 10_000


@dataclass
class Run:
    """The state after the steps that completed, how many, their events, and what the
    next step lacked (None: the game waits for a decision, or the limit was reached)."""

    state: State
    steps: int = 0
    events: list = field(default_factory=list)
    lacked: str | None = None


def handle(state: State, comp: Components, side: str, action: dict) -> tuple[State, list]:
    """Apply `side`'s action itself (ids already resolved), and nothing after it, to a copy
    of the state; raises RuleViolation or Malformed as `apply` does, and Unknown if the
    copy lacks what the action's own rule reads."""
    if state["step"] == OVER:
        raise RuleViolation("2", N_("the game is over"))
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str):
        raise Malformed("type", N_("expected a mapping with a 'type'"))
    handler = ANYTIME.get(kind) or asked_kind(state, side, kind).actions[kind]
    new = clone(state)
    events: list = []
    handler(new, comp, side, action, events)
    return new, events


def carry_on(state: State, comp: Components, limit: int | None = None) -> Run:
    """Take the steps without a choice, and the copy's own battle plan's answers, until a
    decision is asked, `limit` steps are taken, or a step needs what the copy lacks."""
    run = Run(state)
    for _ in range(MAX_STEPS):
        if run.state["result"] is not None or run.steps == limit:
            return run
        kind = current(run.state)
        if kind is None:
            return run
        trial = clone(run.state)
        found: list = []
        try:
            moved = kind.forced(trial, comp, found)
            if not moved:
                follow(trial, comp, found)
                moved = bool(found)
        except Unknown as lack:
            run.lacked = lack.what
            return run
        if not moved:
            return run
        run.state = trial
        run.steps += 1
        run.events.extend(found)
    raise RuntimeError("a run of forced steps did not end")
