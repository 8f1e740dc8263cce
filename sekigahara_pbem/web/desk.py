"""The turn behind the page: the session, the number of the moment the page shows, and how
the turn ended. Every change goes through here, one at a time (the server may run two
requests at once), and each names the moment it answers: an answer to a moment that has
passed (a double click, a second tab) is refused, never taken for the next question."""

from __future__ import annotations

import threading

from ..i18n import N_
from ..i18n import gettext as _
from ..play.console import NotAnAnswer, numbers, parse
from ..play.session import TurnSession
from ..refusal import UserError
from ..rules.components import Components
from ..rules.decisions import Question
from .moment import moment

SIGNED, STOPPED = "signed", "stopped"
OUT_OF_DATE = N_("this page is out of date: reload it")


class Stale(UserError):
    """An answer to a moment the page no longer shows."""


class Desk:
    """One turn answered from the page; `ended` is set once it is signed or stopped."""

    def __init__(self, session: TurnSession, comp: Components, packet_view: dict):
        self.session, self.comp, self.packet_view = session, comp, packet_view
        self.seq = 0
        self.outcome: str | None = None
        self.ended = threading.Event()
        self._lock = threading.Lock()

    def now(self) -> dict:
        """The page's data for the moment."""
        with self._lock:
            return self._now()

    def answer(self, seq: int, picks: list[int]) -> dict:
        """Answer the question of moment `seq` with the chosen choices (their indices);
        NotAnAnswer if they are not an answer to it, as at the terminal."""
        with self._lock:
            question = self._current(seq)
            if question is None:
                raise Stale(_(OUT_OF_DATE))
            self.session.answer(value(question, picks))
            return self._next()

    def undo(self, seq: int) -> dict:
        """Take back the last answer (the whole turn stays open)."""
        with self._lock:
            self._current(seq)
            self.session.undo()
            return self._next()

    def sign(self, seq: int) -> dict:
        """The whole turn confirmed: the command signs `session.actions`."""
        with self._lock:
            if self._current(seq) is not None:
                raise Stale(_("the turn is not complete yet"))
            return self._end(SIGNED)

    def stop(self) -> dict:
        """The player stops: nothing is written."""
        with self._lock:
            return self._end(STOPPED)

    def _current(self, seq: int) -> Question | None:
        if self.outcome is not None or seq != self.seq:
            raise Stale(_(OUT_OF_DATE))
        return self.session.question

    def _next(self) -> dict:
        self.seq += 1
        return self._now()

    def _now(self) -> dict:
        if self.outcome is not None:
            return {"seq": self.seq, "ended": self.outcome}
        return moment(self.session, self.comp, self.packet_view, self.seq)

    def _end(self, outcome: str) -> dict:
        if self.outcome is None:
            self.outcome = outcome
            self.seq += 1
            self.ended.set()
        return self._now()


def value(question: Question, picks: list[int]) -> object:
    """The answer the chosen choices mean, read as the terminal reads their numbers
    (play/console.parse), with its checks; no choice at all means none, not the default
    (the page shows the default already chosen)."""
    if not picks:
        if question.pick == "any":
            return []
        raise NotAnAnswer(_("choose one") if question.pick == "one" else _("choose at least one"))
    shown = numbers(question)
    if not all(0 <= i < len(shown) for i in picks):
        raise NotAnAnswer(_("choose from the list"))
    return parse(" ".join(str(shown[i]) for i in picks), question)
