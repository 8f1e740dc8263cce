"""One turn of one side, built step by step on the side's shadow state (rules/shadow.py).

Each action comes from its decision kind's guided dialogue (rules/decisions/). After each
action the shadow state advances, and the turn goes on while the side is still the one
asked and nothing it could not foresee has happened: the turn stops after a sealed
decision (6.2, 6.3), when the decision passes to the opponent or the game ends, and after
an event whose outcome the shadow state only guesses: anything the opponent did or was
made to do (its stand-in hand and blocks decide it there, e.g. finishing a battle for want
of a card to deploy), and the events of `UNFORESEEN` (a draw from a deck whose order it
does not know, a Loyalty Challenge against a hand it does not see, an overrun of blocks it
does not know, a battle plan answering). Undo
takes back the last answer, across actions too, until nothing is left.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.components import Components
from ..rules.decisions import Question, current
from ..rules.engine import apply, pending
from ..rules.vocab import BID, DISCARD, other

UNFORESEEN = frozenset(
    ("draw", "reshuffle", "reinforcements", "challenge", "overrun", "bids", "by_plan")
)


@dataclass
class Step:
    """An action being built: the state it starts from and the answers given so far."""

    state: dict
    answers: list = field(default_factory=list)


class TurnSession:
    """The actions of one turn, with the question to answer next."""

    def __init__(self, state: dict, comp: Components, side: str):
        self.comp, self.side = comp, side
        self.done: list[tuple[Step, dict, dict]] = []  # (where it started, action, after)
        self.step: Step | None = Step(state) if self._asked(state) else None
        self.question: Question | None = None
        self._advance()

    @property
    def actions(self) -> list[dict]:
        return [action for _, action, _ in self.done]

    @property
    def state(self) -> dict:
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
        if self.step is not None and self.step.answers:
            self.step.answers.pop()
        elif self.done:
            start, _, _ = self.done.pop()
            start.answers.pop()
            self.step = start
        else:
            return False
        self._advance()
        return True

    def _advance(self) -> None:
        """Replay the current action's answers; finish the action if they complete it and
        start the next one while the turn goes on."""
        while self.step is not None:
            dialogue = current(self.step.state).dialogue(self.step.state, self.comp, self.side)
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
        start = self.step
        after, events = apply(start.state, self.comp, self.side, action)
        self.done.append((start, action, after))
        goes_on = self._goes_on(start.state, after, events)
        self.step = Step(after) if goes_on else None

    def _asked(self, state: dict) -> bool:
        return any(d["side"] == self.side for d in pending(state))

    def _guessed(self, event: dict) -> bool:
        return event["type"] in UNFORESEEN or event.get("side") == other(self.side)

    def _goes_on(self, before: dict, after: dict, events: list) -> bool:
        """Whether the side may go on deciding in the same turn file."""
        if before["step"] in (DISCARD, BID) or after["result"] is not None:
            return False
        if after["rng"] != before["rng"] or any(self._guessed(e) for e in events):
            return False
        return self._asked(after)
