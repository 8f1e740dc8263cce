"""Running the engine on one side's working copy, one step at a time.

`engine.apply` runs an action and everything that follows it in one go. A side's copy of
a two-party game may lack what a later step reads (`Unknown`), so here each step runs on
a copy of the state and is kept only if it completes: a run stops before the first step
the side cannot decide, and says what it lacked (docs/two-party.md, "who computes each
step"). A run can also be held to a number of steps, to retrace another side's run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.components import Components
from ..rules.decisions import current
from ..rules.engine import ANYTIME, asked_kind
from ..rules.engine import follow as answer_by_plans
from ..rules.state import clone
from ..rules.vocab import N_, OVER, Malformed, RuleViolation, Unknown

MAX_STEPS = 10_000


@dataclass
class Run:
    """The state after the steps that completed, how many, their events, and what the
    next step lacked (None: the game waits for a decision, or the limit was reached)."""

    state: dict
    steps: int = 0
    events: list = field(default_factory=list)
    lacked: str | None = None


def handle(state: dict, comp: Components, side: str, action: dict) -> tuple[dict, list]:
    """Apply `side`'s action itself (ids already resolved) to a copy of the state; raises
    RuleViolation or Malformed as `engine.apply` does, and Unknown if the copy lacks
    what the action's own rule reads."""
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


def carry_on(state: dict, comp: Components, limit: int | None = None) -> Run:
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
                answer_by_plans(trial, comp, found)
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
