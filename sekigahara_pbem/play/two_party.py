"""`seki play` in a two-party game: the report from the side's own copy, and each decision
walked with the same numbered questions as in a referee's game (play/console.py).

The side's copy is exact for its own items, so the questions are those of its decision
kinds' guided dialogues on that copy; one action is built at a time, because the copy
itself goes on after each (twoparty/exchange.py) as far as it knows. On the board
(`--web`, `on_the_board`) the same sessions are answered one after another on one page.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

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
from ..rules.views import redact_event, view
from ..rules.vocab import Unknown, other
from ..twoparty import files
from ..twoparty import knowledge as kn
from ..twoparty.exchange import Chooser
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

    def _finish(self, action: dict) -> None:
        self.done.append((self.step, action, self.step.state))
        self.step = None


def side_view(state: dict, kc: Components, side: str) -> dict:
    """The side's view of its copy, as a packet would hold it: its bag is only counted."""
    v = view(state, kc, side)
    v["own"]["bag"] = []
    return v


def _packet(n: int, state: dict, kc: Components, side: str, seen: list) -> Packet:
    """The side's copy as a packet would show it: its view, and what it saw happen (the
    events that name only what it knows)."""
    events = [e for e in seen if not any(map(kn.is_handle, kn.names_in(e)))]
    return Packet(n, side, "", side_view(state, kc, side), events, [], None, [])


def report(game_id: str, n: int, state: dict, kc: Components, side: str, seen: list) -> str:
    """The side's report, as text."""
    return render_text(game_id, _packet(n, state, kc, side, seen), kc, guided=True)


def page(
    game_id: str, n: int, state: dict, kc: Components, side: str, seen: list, options: dict
) -> str:
    """The side's report as an HTML page with the map (reports/html.py)."""
    return render_html(game_id, _packet(n, state, kc, side, seen), kc, options)


def chooser(ask: console.Asker, say: Callable[[str], None]):
    """A chooser for `Party.write`: each decision asked at the terminal (or from a script)."""

    def choose(state: dict, kc: Components, side: str) -> dict:
        session = OneAction(state, kc, side)
        if session.question is None:
            raise console.Stopped(_("nothing is asked of you now"))
        console.run(session, kc, side_view(state, kc, side), ask, say)
        return session.actions[0]

    return choose


def confirmer(kc: Components, side: str, ask: console.Asker, say: Callable[[str], None]):
    """Before the record is signed: its actions, then sign (Enter or 1) or stop (q); a
    script that answered every question signs, as in a referee's game."""

    def confirm(actions: list[dict], state: dict) -> None:
        v = side_view(state, kc, side)
        say(_("Your record:"))
        for i, action in enumerate(actions, 1):
            say(f"  {i}. {describe_option(action, kc, v, side)}")
        while True:
            say(_("Sign it?  1. yes, sign and write the record    (q stop)"))
            raw = ask("> ", console.CONFIRM).strip().lower()
            if raw in ("", "1"):
                return
            if raw == console.QUIT:
                raise console.Stopped(_("stopped: nothing written"))
            say("  " + _("type 1 or q"))

    return confirm


class OnTheBoard:
    """A chooser and a confirmer for `Side.turn` on the page (web/turn.Board): each
    decision a session of its own, asked on the one page in turn, with the record's
    actions chosen before it listed beside the question and drawn on the map; then the
    record to sign or stop. The same sessions as `chooser`, the same actions as at the
    terminal from the same answers. `kc` names the copy's items, handles included: the
    one the party writing the record hands to `choose` (each load makes its own)."""

    def __init__(self, board: Board, kc: Components, side: str):
        self.board, self.kc, self.side = board, kc, side
        self.chosen: list[dict] = []  # the record's actions so far, in words
        self.drawn: list = []  # and their events

    def choose(self, state: dict, kc: Components, side: str) -> dict:
        """One decision, answered on the page."""
        self.kc = kc
        session = OneAction(state, kc, side)
        if session.question is None:
            raise console.Stopped(_("nothing is asked of you now"))
        v = side_view(state, kc, side)
        self.board.answer(session, v, sign=False, before=self.chosen, drawn=self.drawn)
        action = session.actions[0]
        self.chosen.append({"text": describe_option(action, kc, v, side)})
        self.drawn += _events(state, kc, side, action)
        return action

    def confirm(self, actions: list[dict], state: dict) -> None:
        """The record's actions on the page, worded as `confirmer` words them: Sign
        returns, Stop raises Stopped (nothing is written)."""
        v = side_view(state, self.kc, self.side)
        lines = [describe_option(action, self.kc, v, self.side) for action in actions]
        self.board.confirm(_known(state, self.side), self.kc, self.side, lines, self.drawn)


def _known(state: dict, side: str) -> dict:
    """The copy as the page shows it: the cards the side drew after its last decision
    are left out of its hand until they are bound with the other side's randomness (the
    copy holds them as handles, twoparty/knowledge.py)."""
    cards = state["cards"]
    hand = [c for c in cards[side]["hand"] if not kn.is_handle(c)]
    return {**state, "cards": {**cards, side: {**cards[side], "hand": hand}}}


def _events(state: dict, kc: Components, side: str, action: dict) -> list:
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
) -> None:
    """This side's next record answered on the page: one server and one browser tab for
    all its decisions and its signing (web/turn.Board), with the other side's last
    record (what this side saw of it) drawn on the map and listed, and the report linked.
    Stopped if the player stops: nothing is written."""
    from ..reports.text import title
    from ..web.moment import story
    from ..web.turn import Board

    game_id, n, state, kc = side.game.game_id, len(side.records()), party.copy(), party.kc
    told = _packet(n, state, kc, side.side, party.seen).events
    html = page(game_id, n, state, kc, side.side, party.seen, side.game.options)
    with Board(
        title=title(game_id, n, side.side),
        report_html=html,
        story=story([(n - 1, told)], kc, side_view(state, kc, side.side)),
        open_browser=open_browser,
        on_ready=on_ready,
    ) as board:
        record = OnTheBoard(board, kc, side.side)
        side.turn(record.choose, now, record.confirm)


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
    found = []
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
