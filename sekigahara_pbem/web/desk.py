"""What the page asks now, and how it ended: a session to answer (one turn, or one action
of a two-party record), a record to confirm, or nothing while the command works out what
comes next. Every change goes through here, one at a time (the server may run two
requests at once), and each names the moment it answers: an answer to a moment that has
passed (a double click, a second tab) is refused, never taken for the next question.

A moment's number is given to one question at most: the answer that completes an action
of a record, or the Undo that goes back past its first question, moves the number on to a
moment of waiting, which asks nothing, and the next session takes that number."""

from __future__ import annotations

import threading
from typing import NamedTuple

from ..i18n import N_
from ..i18n import gettext as _
from ..play.console import NotAnAnswer, how_many, numbers, parse
from ..play.session import TurnSession
from ..refusal import UserError
from ..rules.components import Components
from ..rules.decisions import Question
from ..rules.state_types import State
from .moment import Story, moment, record

STOPPED, OVER = "stopped", "over"
OUT_OF_DATE = N_("this page is out of date: reload it")


class Stale(UserError):
    """An answer to a moment the page no longer shows."""


class Asking(NamedTuple):
    """A session answered on the page. `sign`: its end is signed on the page (a whole
    turn); else it is handed back as soon as it is complete (one action of a record).
    `before`: the record's actions chosen before it, `drawn`: their events, for the map.
    `back`: answers were given before it (a record's earlier decisions), so Undo with
    none of its own left hands it back taken back."""

    session: TurnSession
    view: dict
    sign: bool
    before: list[dict]
    drawn: list
    back: bool = False


class Confirming(NamedTuple):
    """A two-party record to sign or stop: its actions in words, the copy it leaves (with
    the components that name its items), and the events its actions drew."""

    state: State
    comp: Components
    side: str
    lines: list[str]
    drawn: list


class Desk:
    """What the page shows and answers. `handed` is set when the task put last is done
    (answered, taken back, signed or stopped); `taken_back` says it was taken back;
    `outcome` is STOPPED once the player stopped, or OVER once the page has shown how
    the turn, the record or the game ended (`finish`): a signed turn waits on the page
    for what comes next."""

    def __init__(self, story: Story):
        self.story = story
        self.report_html: str | None = None  # the report of the packet asked, linked
        self.seq = 0
        self.seen = -1  # the last moment the page fetched
        self.task: Asking | Confirming | None = None
        self.outcome: str | None = None
        self.closing: list[str] = []  # the game's end, in words, once it is OVER
        self.link: tuple[str, str] | None = None  # and a link under them (href, words)
        self.taken_back = False
        self.handed = threading.Event()
        self._lock = threading.Lock()

    def put(self, task: Asking | Confirming, story: Story | None = None) -> bool:
        """Show `task` next (with `story`, what happened since the player's last turn);
        False if the player has stopped already."""
        with self._lock:
            if self.outcome is not None:
                return False
            self.task, self.taken_back = task, False
            if story is not None:
                self.story = story
            self.handed.clear()
            return True

    def finish(self, closing: list[str], link: tuple[str, str] | None = None) -> None:
        """The game, the turn or the record is over: the page shows how it
        ended, in words (with `link`, an address and its words), and asks nothing."""
        with self._lock:
            self.closing, self.link = closing, link
            self._end(OVER)

    def now(self) -> dict:
        """The page's data for the moment."""
        with self._lock:
            self.seen = self.seq
            return self._now()

    def answer(self, seq: int, picks: list[int]) -> dict:
        """Answer the question of moment `seq` with the chosen choices (their indices);
        NotAnAnswer if they are not an answer to it, as at the terminal."""
        with self._lock:
            task = self._asking(seq)
            question = task.session.question
            if question is None:
                raise Stale(_(OUT_OF_DATE))
            task.session.answer(value(question, picks))
            if task.session.question is None and not task.sign:
                self.task = None  # the action is done: the command goes on with it
                self.handed.set()
            return self._next()

    def undo(self, seq: int) -> dict:
        """Take back the last answer (the whole turn stays open). A record's decision with
        none of its answers left, or the record to sign, is handed back taken back: the
        command takes back the answer before it (play/two_party.Answers) and asks again."""
        with self._lock:
            task = self._current(seq)
            if isinstance(task, Asking):
                back = not task.session.undo() and task.back
            else:  # a record of forced steps alone has no answer to take back
                back = bool(task.lines)
            if back:
                self.task, self.taken_back = None, True
                self.handed.set()
            return self._next()

    def sign(self, seq: int) -> dict:
        """The whole turn, or the record, confirmed: the command signs it, and the page
        waits for what comes next (the next turn, or how this one ended: `finish`)."""
        with self._lock:
            self._current(seq)
            if isinstance(self.task, Asking) and self.task.session.question is not None:
                raise Stale(_("the turn is not complete yet"))
            self.task = None
            self.handed.set()
            return self._next()

    def stop(self) -> dict:
        """The player stops: nothing is written."""
        with self._lock:
            return self._end(STOPPED)

    def _current(self, seq: int) -> Asking | Confirming:
        if self.outcome is not None or self.task is None or seq != self.seq:
            raise Stale(_(OUT_OF_DATE))
        return self.task

    def _asking(self, seq: int) -> Asking:
        task = self._current(seq)
        if not isinstance(task, Asking):
            raise Stale(_(OUT_OF_DATE))
        return task

    def _next(self) -> dict:
        self.seq += 1
        return self._now()

    def _now(self) -> dict:
        task = self.task
        if self.outcome is not None:
            ended = {"seq": self.seq, "ended": self.outcome}
            if self.outcome != OVER:
                return ended
            link = {"href": self.link[0], "text": self.link[1]} if self.link else None
            return {**ended, "closing": self.closing, "link": link}
        if task is None:
            return {"seq": self.seq, "waiting": True}
        if isinstance(task, Confirming):
            return record(task.state, task.comp, task.side, task.lines, task.drawn, self.story,
                          self.seq)  # fmt: skip
        session = task.session
        out = moment(session, session.comp, task.view, self.seq, task.drawn, self.story)
        out["turn"] = task.before + out["turn"]
        return out

    def _end(self, outcome: str) -> dict:
        if self.outcome is None:
            self.outcome = outcome
            self.seq += 1
            self.handed.set()
        return self._now()


def value(question: Question, picks: list[int]) -> object:
    """The answer the chosen choices mean, read as the terminal reads their numbers
    (play/console.parse), with its checks; no choice at all means none, not the default
    (the page shows the default already chosen)."""
    if not picks:
        if question.pick == "any":
            return []
        raise NotAnAnswer(how_many(question))
    shown = numbers(question)
    if not all(0 <= i < len(shown) for i in picks):
        raise NotAnAnswer(_("choose from the list"))
    return parse(" ".join(str(shown[i]) for i in picks), question)
