"""`seki play` in a two-party game: the report from the side's own copy, and each decision
walked with the same numbered questions as in a referee's game (play/console.py).

The side's copy is exact for its own items, so the questions are those of its decision
kinds' guided dialogues on that copy; one action is built at a time, because the copy
itself goes on after each (twoparty/exchange.py) as far as it knows. On the board
(`--web`, `on_the_board`) the same sessions are answered one after another on one page.
Undo goes back across the record's decisions, down to its first question: the record is
built again from the side's saved knowledge with the answers kept (`Answers`), so that
nothing taken back leaves a trace in the copy it is written from.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ..crypto import signing
from ..crypto.keystore import default_dir
from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from ..mail.settings import MailSettings
from ..protocol import documents as docs
from ..protocol.packets import Packet
from ..protocol.store import write_atomic
from ..refusal import Refusal
from ..reports import render_html, render_text
from ..reports.choices import describe_option
from ..rules.components import Components
from ..rules.engine import handle
from ..rules.state_types import State
from ..rules.turn import OneDecision
from ..rules.views import redact_event, view
from ..rules.vocab import Unknown, other
from ..twoparty import files
from ..twoparty import knowledge as kn
from ..twoparty.exchange import Answering, Chooser
from ..twoparty.side import Side
from . import console, filing, mailbox
from .session import TurnSession

if TYPE_CHECKING:
    from ..twoparty.exchange import Party
    from ..web.turn import Board

MAILED = "mailed.txt"  # in the side's directory: the files it has mailed
MAX_RECORDS = 999_999  # places a record may claim (records/NNNN-<side>.txt)


class OneAction(TurnSession):
    """One decision's action: the session ends when the dialogue completes it."""

    def copy_from(self, state: State) -> OneDecision:
        return OneDecision(state, self.comp, self.side)

    @property
    def answers(self) -> list:
        """The answers given to this decision's questions so far."""
        step = self.step if self.step is not None else self.done[0][0]
        return list(step.answers)


def side_view(state: State, kc: Components, side: str) -> dict:
    """The side's view of its copy, as a packet would hold it: its bag is only counted."""
    v = view(state, kc, side)
    v["own"]["bag"] = []
    return v


def _packet(n: int, state: State, kc: Components, side: str, seen: list) -> Packet:
    """The side's copy as a packet would show it: its view, and what it saw happen (the
    events that name only what it knows)."""
    events = [e for e in seen if not any(map(kn.is_handle, kn.names_in(e)))]
    return Packet(n, side, "", side_view(state, kc, side), events, [], None, [])


def report_of(side: Side, party: Party) -> str:
    """The side's report on its knowledge now (`party`, from `side.load()`), as text."""
    return render_text(side.game.game_id, _side_packet(side, party), party.kc, guided=True)


def page_of(side: Side, party: Party) -> str:
    """The same as an HTML page with the map (reports/html.py)."""
    packet = _side_packet(side, party)
    return render_html(side.game.game_id, packet, party.kc, side.game.options)


def _side_packet(side: Side, party: Party) -> Packet:
    """The side's knowledge as the packet of its next record would show it."""
    return _packet(len(side.records()), party.copy(), party.kc, side.side, party.seen)


def randomness_only(party: Party) -> bool:
    """Whether the side's next record carries only its randomness: none of the other
    side's has come yet, so its own setup draws cannot be bound and nothing is asked."""
    return not party.contribution


class Answers(ABC):
    """The answers a record is built from, decision by decision, and each action in words
    as it was chosen: kept across the builds of one record, so that an answer taken back
    from an earlier decision (or at the confirmation) has the record built again from the
    side's saved knowledge (exchange.Answering, `Side.turn`) with the answers kept given
    again without asking, and the copy comes out as if the answers taken back had never
    been given. `choose` and `confirm` are those of `Side.turn`; a subclass asks (`ask`)
    and confirms (`sign`) at the terminal or on the page."""

    def __init__(self) -> None:
        self.given: list[list] = []  # each decision's answers, the one asked last so far
        self.words: list[str] = []  # each action chosen, described on the copy it was
        self.drawn: list[list] = []  # and its events, as far as the copy computes them
        self.at = 0  # the decision the build is at
        self.kc: Components | None = None  # the build's components: each load makes its own

    def choose(self, state: State, kc: Components, side: str) -> dict | None:
        """One decision: the answers kept for it given again, then asked for the rest;
        None if the player took back an answer of an earlier decision."""
        i, self.at, self.kc = self.at, self.at + 1, kc
        session = OneAction(state, kc, side)
        if session.question is None:
            raise console.Stopped(_("nothing is asked of you now"))
        for value in self.given[i] if i < len(self.given) else []:
            session.answer(value)
        v = side_view(state, kc, side)
        if session.question is not None and not self.ask(session, kc, v, i):
            self.back(i)
            return None
        action = session.actions[0]
        self.given[i : i + 1] = [session.answers]
        self.words[i:] = [describe_option(action, kc, v, side)]
        self.drawn[i:] = [_events(state, kc, side, action)]
        return action

    def confirm(self, actions: list[dict], state: State) -> bool:
        """The record's actions, each worded on the copy it was chosen on, to sign (True),
        take the last answer back (False), or stop (console.Stopped)."""
        lines = [words for _action, words in zip(actions, self.words, strict=True)]  # one each
        if self.sign(lines, state):
            return True
        self.back(len(self.given))
        return False

    def back(self, i: int) -> None:
        """Take back the last answer given before decision `i` (of this build): the
        record is built again (`Side.turn`), up to that answer's question."""
        del self.given[i:]
        self.given[-1].pop()
        self.at = 0

    @abstractmethod
    def ask(self, session: OneAction, kc: Components, v: dict, i: int) -> bool:
        """Ask decision `i` (`session`, with the view of the copy it starts from) until its
        action is complete (True), or until an undo with nothing left of it takes back an
        answer of an earlier decision (False)."""

    @abstractmethod
    def sign(self, lines: list[str], state: State) -> bool:
        """Show the record (`lines`) leaving the copy `state`: True to sign, False to take
        the last answer back (there is one only where `lines` names an action); Stopped to
        stop."""


class AtTheTerminal(Answers):
    """A record's decisions asked at the terminal, or from a script (`--choose`), as a
    referee's game asks them (play/console.py); `u` at a decision's first question takes
    back the last answer of the one before, and at the confirmation the last answer."""

    def __init__(self, ask: console.Asker, say: Callable[[str], None]):
        super().__init__()
        self.asker, self.say = ask, say

    def ask(self, session: OneAction, kc: Components, v: dict, i: int) -> bool:
        return console.run(session, kc, v, self.asker, self.say, back=i > 0)

    def sign(self, lines: list[str], state: State) -> bool:
        """A script that answered every question signs, as in a referee's game."""
        self.say(_("Your record:"))
        for n, line in enumerate(lines, 1):
            self.say(f"  {n}. {line}")
        while True:
            self.say(_("Sign it?  1. yes, sign and write the record    (u undo, q stop)"))
            raw = self.asker("> ", console.CONFIRM).strip().lower()
            if raw in ("", "1"):
                return True
            if raw == console.QUIT:
                raise console.Stopped(_("stopped: nothing written"))
            if raw == console.UNDO and lines:
                self.say(_("undone"))
                return False
            if raw == console.UNDO:  # a record of forced steps alone: no answer was given
                self.say(_("nothing to undo"))
                continue
            self.say("  " + _("type 1, u or q"))


def chooser(ask: console.Asker, say: Callable[[str], None]) -> Answering:
    """A chooser for `Side.turn`: each decision asked at the terminal (or from a script)."""
    return AtTheTerminal(ask, say).choose


class OnTheBoard(Answers):
    """A record's decisions on the page (web/turn.Board): each a session of its own, asked
    on the one page in turn, with the record's actions chosen before it listed beside the
    question and drawn on the map; then the record to sign, undo or stop. The same
    sessions as at the terminal, the same actions from the same answers; Undo at a
    decision's first question takes back the last answer of the one before."""

    def __init__(self, board: Board, side: str):
        super().__init__()
        self.board, self.side = board, side

    def ask(self, session: OneAction, kc: Components, v: dict, i: int) -> bool:
        before = [{"text": words} for words in self.words[:i]]
        drawn = [e for events in self.drawn[:i] for e in events]
        return self.board.answer(session, v, sign=False, before=before, drawn=drawn, back=i > 0)

    def sign(self, lines: list[str], state: State) -> bool:
        drawn = [e for events in self.drawn for e in events]
        kc = cast(Components, self.kc)  # not None: a record is confirmed after its choices
        return self.board.confirm(_known(state, self.side), kc, self.side, lines, drawn)


def _known(state: State, side: str) -> dict:
    """The copy as the page shows it: the cards the side drew after its last decision
    are left out of its hand until they are bound with the other side's randomness (the
    copy holds them as handles, twoparty/knowledge.py)."""
    cards = state["cards"]
    hand = [c for c in cards[side]["hand"] if not kn.is_handle(c)]
    return {**state, "cards": {**cards, side: {**cards[side], "hand": hand}}}


def _events(state: State, kc: Components, side: str, action: dict) -> list:
    """The events of the action itself on the copy, for the page's map, as far as the
    copy computes them: none where the action's rule reads what only the other side
    holds (the party holds the action for it, twoparty/exchange.py), and none that names
    the other side's hidden items."""
    try:
        events = handle(state, kc, side, action)[1]
    except Unknown:
        return []
    return [redact_event(e, side) for e in events if not any(map(kn.is_handle, kn.names_in(e)))]


def on_the_board(
    side: Side,
    party: Party,
    now: str,
    on_ready: Callable[[str], None] | None = None,
    open_browser: bool = True,
    sent: Callable[[], list[str]] = list,
    own_mail: bool = True,
) -> None:
    """This side's next record answered on the page: one server and one browser tab for
    all its decisions and its signing (web/turn.Board), with the other side's last
    record (what this side saw of it) drawn on the map and listed, and the report linked.
    The page stays after Sign (issue 41): it waits while `sent` sends the record (and
    says, in the words it returns, what became of it), then says where the record is
    and what became of it, with (`own_mail`) a link that starts the player's own mail
    client, addressed to the other player.
    Stopped if the player stops: nothing is written."""
    from ..reports.text import title
    from ..web.moment import story
    from ..web.turn import Board
    from ..words import CLOSE_PAGE

    packet, kc = _side_packet(side, party), party.kc
    game_id, n = side.game.game_id, packet.seq
    with Board(
        title=title(game_id, n, side.side),
        report_html=render_html(game_id, packet, kc, side.game.options),
        story=story([(n - 1, packet.events)], kc, packet.view),
        open_browser=open_browser,
        on_ready=on_ready,
    ) as board:
        record = OnTheBoard(board, side.side)
        side.turn(record.choose, now, record.confirm)
        path = side.records()[-1]
        where = _("Your record, signed: {path}").format(path=path.resolve())
        try:
            said = sent()
        except Refusal as exc:  # not mailed (the record is written): said on the page too
            board.finish([where, explain(exc)])
            raise
        link = _mail_link(side, path) if own_mail else None
        board.finish([where, *said, "", _(CLOSE_PAGE)], link)


def _mail_link(side: Side, path: Path) -> tuple[str, str]:
    """The player's own mail client, for the record, to the other player's address where
    game.txt names one."""
    other_side = next(s for s in side.game.players if s != side.side)
    to = (side.game.addresses or {}).get(other_side, "")
    words = _("Write the mail to the other player (attach the file)")
    return mailbox.mail_link(to, side.game.game_id, f"{side.side}: {path.name}", path, words)


def take_mail(side: Side, mail: MailSettings, now: str) -> list[str]:
    """Fetch the mailbox and take in, in order, every record and reveal of the other side that
    came, at `now` by this side's clock; what was done, in words. The mailbox keeps each
    by the hash of its text (play/filing.py), and nothing of it is read here before its
    signature checks against the other side's key: a stranger's file is dropped (its
    mail stays in mail/processed), so it can neither take the place of the record or
    reveal it claims to be nor keep the real one out. A refused record stays for the
    next pass (one that came before the one it follows is taken once that one is here);
    one whose place is taken is dropped."""
    fetched = mailbox.collect(mail)[1]
    said = [ngettext("{n} new message", "{n} new messages", fetched).format(n=fetched)]
    folder = default_dir() / filing.TWO_PARTY / side.game.game_id
    staged = _staged(side, folder, said)
    for n, where, text, _path in staged:
        if _taken(side, n):
            continue
        try:
            if n is None:
                side.take_reveal(text, where, now)
                said.append(_("took {name}").format(name=where))
            else:
                side.receive(text, where, now)
                said.append(_("took {name}: checked against your own engine").format(name=where))
        except Refusal as refused:
            said.append(_("not taken: {reason}").format(reason=explain(refused)))
    for n, _where, _text, path in staged:
        if _taken(side, n):  # taken, or another file for its place was
            path.unlink()
    return said


def _staged(side: Side, folder: Path, said: list[str]) -> list[tuple[int | None, str, str, Path]]:
    """The other side's records (by their place n) and reveal (None) waiting in the
    mailbox, each signed by the other side, in the order they are taken: the records by
    n, then the reveal. Everything else there is dropped: a stranger's file (said), this
    side's own records mailed back, what is no record or reveal of this game."""
    found: list[tuple[int | None, str, str, Path]] = []
    for path in sorted(folder.glob("*.txt")):
        try:
            text = docs.read_capped(path)
            verified = signing.verify(text, side.game.players.values())
            data = docs.load_yaml(verified.body, path.name, plain=True)
        except Refusal as refused:  # a stranger's, or no document of seki's
            reason = f"{path.name}: {explain(refused)}"
            said.append(_("not taken: {reason}").format(reason=reason))
            path.unlink()
            continue
        author = side.game.side_of(verified.signer)
        data = data if isinstance(data, dict) and data.get("game") == side.game.game_id else {}
        n = data.get("n")
        if author == other(side.side) and data.get("format") == files.REVEAL_FORMAT:
            found.append((None, f"reveal-{author}.txt", text, path))
        elif (
            author == other(side.side)
            and data.get("format") == files.RECORD_FORMAT
            and isinstance(n, int)
            and not isinstance(n, bool)
            and 0 <= n <= MAX_RECORDS
        ):
            found.append((n, f"{n:04d}-{author}.txt", text, path))
        else:
            path.unlink()
    return sorted(found, key=lambda item: (item[0] is None, item[0] or 0, item[3].name))


def _taken(side: Side, n: int | None) -> bool:
    """Whether the other side's record at place n (the joins are 0 and 1), or its reveal
    (None), is on file already."""
    if n is None:
        return (side.root / "reveals" / f"{other(side.side)}.txt").exists()
    return side.record_path(n, other(side.side)).exists() or 2 <= n < len(side.records())


def send_mail(side: Side, mail: MailSettings) -> list[str]:
    """Mail to the other player every record and reveal of this side not mailed yet (its
    join included), in order."""
    other_side = next(s for s in side.game.players if s != side.side)
    to = (side.game.addresses or {}).get(other_side)
    if to is None:
        text = N_("game.txt names no address for {side}: send the files yourself")
        raise Refusal(text, side=other_side)
    log = side.root / MAILED
    mailed = set(log.read_text(encoding="utf-8").split()) if log.exists() else set()
    mine = [p for p in side.records() if p.name.endswith(f"-{side.side}.txt")]
    reveal = side.root / "reveals" / f"{side.side}.txt"
    said = []
    for path in [*mine, *([reveal] if reveal.exists() else [])]:
        name = str(path.relative_to(side.root))
        if name in mailed:
            continue
        said.append(mailbox.send_to(mail, to, side.game.game_id, path, f"{side.side}: {name}"))
        mailed.add(name)
        write_atomic(log, "\n".join(sorted(mailed)) + "\n")
    return said


def robot_pass(side: Side, mail: MailSettings, choose: Chooser, now: str) -> list[str]:
    """One pass of a computer player by mail: take what came, write its record when it is
    its turn, reveal once the game is over, claim the win when the other side is past
    the deadline (with its record, or its reveal), mail what it has not mailed."""
    said = take_mail(side, mail, now)
    if side.whose_turn() == side.side:
        side.turn(choose, now)
        said.append(_("wrote {name}").format(name=side.records()[-1].name))
    if side.result() is not None and not (side.root / "reveals" / f"{side.side}.txt").exists():
        side.reveal(now)
        said.append(_("revealed its secret"))
    late = side.late(now)
    if late is not None:
        if side.result() is not None:
            claimed = ngettext(
                "claimed the win: the other side's reveal is {n} hour late",
                "claimed the win: the other side's reveal is {n} hours late",
                late,
            )
        else:
            claimed = ngettext(
                "claimed the win: the other side's record is {n} hour late",
                "claimed the win: the other side's record is {n} hours late",
                late,
            )
        side.claim_forfeit(now)
        said.append(claimed.format(n=late))
    return said + send_mail(side, mail)
