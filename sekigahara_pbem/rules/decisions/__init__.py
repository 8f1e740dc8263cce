"""The decision table: every kind of decision the game asks, one module each, each
implementing the protocol of `kind.Kind`. The engine's `pending`, `apply`, `options`, the
combat flow, battle plans, the deadline policy and the guided dialogue of `seki play` all
loop over this table; adding a kind of decision means adding its module and its line here.
"""

from __future__ import annotations

from typing import cast

from ..components import Components
from ..state_types import Combat, State
from ..vocab import COMBAT, DECLARE, OVER, SIEGE
from . import (
    bid,
    castle,
    challenge,
    choose_first,
    declare,
    deploy,
    discard,
    losses,
    movement,
    retreat,
)
from .kind import Candidates, Choice, Dialogue, Handler, Kind, Question

__all__ = ["KINDS", "Candidates", "Choice", "Dialogue", "Handler", "Kind", "Question"]

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        discard.KIND,
        bid.KIND,
        choose_first.KIND,
        movement.KIND,
        declare.KIND,
        castle.KIND,
        deploy.KIND,
        challenge.KIND,
        losses.KIND,
        retreat.KIND,
    )
}

# The action types each step of the weekly cycle understands, and the kind each answers.
STEP_ACTIONS: dict[str, dict[str, Kind]] = {}
for _kind in KINDS.values():
    STEP_ACTIONS.setdefault(_kind.step, {}).update(dict.fromkeys(_kind.actions, _kind))

# The kind of decision each action type answers (an action type answers one kind).
ACTION_KINDS: dict[str, Kind] = {a: k for k in KINDS.values() for a in k.actions}

# The fields of each action type that carry names (rules/notation.py reads them).
ACTION_FIELDS = {t: f for k in KINDS.values() for t, f in k.fields.items() if f}


def current(state: State) -> Kind | None:
    """The kind of decision the game waits for now (None once it is over)."""
    step = state["step"]
    if step == OVER:
        return None
    if step == COMBAT:
        fight = cast(Combat, state["combat"])["fight"]
        # a fight's stage is None only once a retreat has ended the game (step over)
        return KINDS[DECLARE if fight is None else cast(str, fight["stage"])]
    return KINDS[step]


def step_rule(step: str) -> str:
    """The rule of a step, cited for an action the step does not take."""
    return KINDS[DECLARE if step == COMBAT else step].rule


def turn_rule(state: State, kind: Kind, action_type: str) -> str:
    """The rule an action breaks when it comes from the side not asked."""
    combat = state["combat"]
    fight = combat["fight"] if combat else None
    if fight is not None and fight["kind"] == SIEGE:
        return "8.9.5" if action_type == "challenge" else (kind.siege_turn_rule or kind.turn_rule)
    return kind.turn_rule


def advance(state: State, comp: Components, events: list) -> None:
    """Carry the game on while the rules leave no choice (each kind's `forced` step)."""
    while state["result"] is None:
        kind = current(state)
        if kind is None or not kind.forced(state, comp, events):
            return
