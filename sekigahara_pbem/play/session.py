"""One turn of one side, built answer by answer on the side's shadow state (rules/shadow.py).

Each action comes from its decision kind's guided dialogue (rules/decisions/). The turn
is the one loop of both modes (rules/turn.py) on the side's copy: the shadow in a
referee's game (`ShadowCopy`: the turn stops after a sealed decision, 6.2, 6.3, when the
decision passes to the opponent or the game ends, and after any event whose outcome the
shadow only guesses: a draw from a deck whose order it does not know, a Loyalty Challenge
against a hand it does not see, an overrun of blocks it does not know, anything the
opponent did or was made to do), one decision of a two-party record (`OneDecision`).
Here the answers are pushed in one at a time, as the player gives them; undo takes back
the last answer, across actions too, until nothing is left, and the action's dialogue
replays the answers kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from ..rules.components import Components
from ..rules.decisions import Dialogue, Kind, Question, current
from ..rules.state_types import State
from ..rules.turn import ShadowCopy, turn
from .plan import plan_dialogue


@dataclass
class Step:
    """An action being built: the state it starts from, the answers given so far, and the
    dialogue that builds it when it is not the decision asked (a battle plan)."""

    state: State
    answers: list = field(default_factory=list)
    opening: Callable[[], Dialogue] | None = None


class TurnSession:
    """The actions of one turn, with the question to answer next."""

    def __init__(self, state: State, comp: Components, side: str, plan: bool = False):
        """`plan`: the turn opens with a battle plan (play/plan.py), asked or not."""
        self.comp, self.side, self.plan = comp, side, plan
        self.start = state  # the shadow state the turn starts from
        self.done: list[tuple[Step, dict, State]] = []  # (where it started, action, after)
        self.step: Step | None = None
        # the event that ended the turn file in the middle of the side's Movement Phase
        # (an overrun, 7.4; a redraw, 7.1): the next packet goes on with it
        self.cut: str | None = None
        self.question: Question | None = None
        self._resume(state)
        self._advance()

    def copy_from(self, state: State) -> ShadowCopy:
        """The side's copy, from `state`: what steps it and what ends the turn."""
        return ShadowCopy(state, self.comp, self.side)

    @property
    def actions(self) -> list[dict]:
        return [action for _, action, _ in self.done]

    @property
    def state(self) -> State:
        """The shadow state after the actions chosen so far."""
        if self.step is not None:
            return self.step.state
        return self.done[-1][2]

    def answer(self, value: object) -> None:
        """Give the answer to the current question."""
        if self.step is None or self.question is None:
            raise ValueError("nothing is asked now")
        self.step.answers.append(value)
        self._advance()

    def undo(self) -> bool:
        """Take back the last answer; False if there is none."""
        self.cut = None
        if self.step is not None and self.step.answers:
            self.step.answers.pop()
        elif self.done:
            start, _, _ = self.done.pop()
            start.answers.pop()
            self._resume(start.state, start)
        else:
            return False
        self._advance()
        return True

    def _resume(self, state: State, step: Step | None = None) -> None:
        """The turn's loop (rules/turn.py) on a copy from `state`, at the decision `step`
        (a new one if None) or at none if the copy asks nothing there."""
        self._copy = self.copy_from(state)
        opening = self.plan and not self.done
        self._turn = turn(self._copy, opening=opening)
        try:
            next(self._turn)
        except StopIteration:
            self.step = None
            return
        self.step = (
            step if step is not None else Step(state, opening=plan_dialogue if opening else None)
        )

    def _advance(self) -> None:
        """Replay the current action's answers; finish the action if they complete it and
        start the next one while the turn goes on."""
        while self.step is not None:
            state = self.step.state
            if self.step.opening is not None:
                dialogue = self.step.opening()
            else:
                # not None: a step without an opening is made only where the side is
                # asked (rules/turn.py), so the game is not over
                kind = cast(Kind, current(state))
                dialogue = kind.dialogue(state, self.comp, self.side)
            try:
                question = next(dialogue)
                for given in self.step.answers:
                    question = dialogue.send(given)
            except StopIteration as finished:
                self._finish(finished.value)
                continue
            self.question = question
            return
        self.question = None

    def _finish(self, action: dict) -> None:
        start = cast(Step, self.step)  # not None: `_advance` finishes the step it is on
        try:
            self._turn.send(action)
            goes_on = True
        except StopIteration:
            goes_on = False
        after = self._copy.state
        self.done.append((start, action, after))
        self.step = Step(after) if goes_on else None
        self.cut = self._copy.cut
