"""One side's turn on its copy of the game: the one loop of both game modes.

A side decides on a copy of the game. In a referee's game the copy is its shadow
(rules/shadow.py): exact in what the side sees, guessed in the rest. In a two-party game
it is its working copy (twoparty/exchange.py): exact in its own secrets, lacking the
other side's. Either way a turn is the same loop: the copy carried on to the side's next
decision, the side's action taken on it, until the side can no longer decide on what its
copy holds. How the copy carries on, takes an action and keeps it, and what stops the
turn, is the copy's (`Copy`): the mode is that parameter. Who decides drives the loop
from outside: a bot or a record's chooser pulls (`drive`), the player's session pushes
each action as its dialogue completes it (play/session.py), and undo is a replay of the
answers kept.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Protocol

from .components import Components
from .engine import apply, pending
from .shadow import unforeseen
from .state_types import State
from .vocab import MOVEMENT

WAITING = "waiting"  # the decision asked now is not the side's, or the game is over
ONE = "one action"  # a copy that takes one action and stops (`OneDecision`)

Turn = Generator[State, dict, str]  # yields each state decided on; returns why it ended


class Copy(Protocol):
    """A side's copy of the game, as its mode keeps it."""

    def asked(self) -> tuple[State, str | None]:
        """The copy carried on to the side's next decision: its state, and why the side
        cannot take that decision on it (None: it can)."""
        ...

    def take(self, state: State, action: dict) -> str | None:
        """Take the side's action, chosen on `state`; why the turn ends after it (None: it
        goes on)."""
        ...


def turn(copy: Copy, opening: bool = False) -> Turn:
    """Each state the side decides on, in turn, sent the action chosen on it; returns why
    the turn ended. `opening`: the first decision is taken even where the copy asks none
    (a battle plan, which a side may file at any moment: rules/plans.py)."""
    state, why = copy.asked()
    if opening:
        why = None
    while why is None:
        why = copy.take(state, (yield state))
        if why is None:
            state, why = copy.asked()
    return why


def drive(steps: Turn, choose: Callable[[State], dict | None]) -> str | None:
    """Run a turn with the actions `choose` gives; why it ended, or None where `choose`
    gave None (an answer taken back: the caller builds the turn again with those kept)."""
    try:
        state = next(steps)
        while True:
            action = choose(state)
            if action is None:
                return None
            state = steps.send(action)
    except StopIteration as end:
        return end.value


class ShadowCopy:
    """A referee's game: the side's shadow, stepped by the engine. The turn goes on while
    the side is asked and nothing it could not foresee happened (`shadow.unforeseen`: a
    draw, a sealed decision, anything the opponent did); `cut` is the event that ended it
    in the middle of the side's Movement Phase (an overrun, 7.4; a redraw, 7.1), which the
    next packet goes on with."""

    def __init__(self, state: State, comp: Components, side: str):
        self.state, self.comp, self.side = state, comp, side
        self.cut: str | None = None

    def asked(self) -> tuple[State, str | None]:
        return self.state, None if self._asked(self.state) else WAITING

    def take(self, state: State, action: dict) -> str | None:
        self.state, events = apply(state, self.comp, self.side, action)
        why = unforeseen(events, self.side)
        moving = self.state["step"] == state["step"] == MOVEMENT
        self.cut = why if why is not None and moving and self._asked(self.state) else None
        return why

    def _asked(self, state: State) -> bool:
        return any(d["side"] == self.side for d in pending(state))


class OneDecision(ShadowCopy):
    """One decision's action, not applied: a two-party record is built one action at a
    time, its copy going on after each as far as it knows (twoparty/exchange.py)."""

    def take(self, state: State, action: dict) -> str | None:
        return ONE
