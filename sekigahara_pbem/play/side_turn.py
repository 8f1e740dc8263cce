"""`seki play DIR` in a two-party game (docs/two-party.md): what the other side sent
taken in, the report shown, this side's decisions asked (at the terminal, or on the page)
and its next record written and sent; or the record a player chose instead (--resign,
--takeback, ...), or, once the game is over, what is left to do. The command only reads
its options (`games.Turn`) and the words go out through `games.Shell`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import words
from ..i18n import N_
from ..i18n import gettext as _
from ..protocol.documents import read_saved
from ..protocol.store import write_new
from ..refusal import UsageError

if TYPE_CHECKING:
    from ..games import Shell, Turn
    from ..mail.settings import MailSettings
    from ..twoparty.exchange import Party
    from ..twoparty.side import Side


def play(directory: Path, turn: Turn, shell: Shell) -> None:
    """A two-party game's turn in the side's `directory`: take in what the other side
    sent (by mail, with mail settings), show the report, ask this side's decisions (at
    the terminal, or with `turn.board` on the page), and write its next record to send
    (mailed, with mail settings)."""
    from ..twoparty import side as sides
    from . import mailbox

    side = sides.open_side(directory, turn.identity)
    mail = mailbox.settings(turn.mail_config) if side.game.addresses else None
    _take_in(side, mail, turn.received, shell)
    party = side.load()
    chosen = _one_aside(side, turn.asides)
    sent = _Sending(side, mail, shell.tell)
    if party.result is not None and chosen != side.claim_forfeit:
        _over(side, party.result, turn, shell)
    elif _next_record(side, party, chosen, turn, shell, sent):
        sent()


def _next_record(
    side: Side,
    party: Party,
    chosen: Callable[[str], str] | None,
    turn: Turn,
    shell: Shell,
    sent: _Sending,
) -> bool:
    """This side's next record, of whichever kind is due: the one the player chose
    (--resign, --takeback...), the first one (its randomness alone), or a turn. Whether
    it is still to send: False when none was written (it is the other side's turn, or no
    one was there to ask), or the page sent it (`sent`) before it closed."""
    from . import console
    from . import two_party as ui

    if chosen is not None:
        chosen(shell.now())
    elif side.whose_turn() != side.side:
        _waiting(side, side.root, shell)
        return False
    elif ui.randomness_only(party):
        shell.tell(_("your first record carries only your randomness: your own setup draws "
                     "are bound with the other side's, which comes in its answer"))  # fmt: skip
        side.turn(ui.chooser(console.script(""), shell.show), shell.now())
    else:
        return _turn(side, party, turn, shell, sent)
    return True


def _take_in(side: Side, mail: MailSettings | None, received: list[Path], shell: Shell) -> None:
    """What the other side sent, taken in before anything is shown or asked: from the
    mailbox (with mail settings), then each --receive file, each checked on the way in."""
    from . import two_party as ui

    for line in ui.take_mail(side, mail, shell.now()) if mail is not None else []:
        shell.tell(line)
    for path in received:
        shell.tell(_take(side, path, shell.now()))


def _one_aside(side: Side, asides: tuple[bool, bool, bool, bool]) -> Callable[[str], str] | None:
    """The Side method named by --resign, --claim-forfeit, --takeback or --agree-takeback,
    or None; two of them at once are refused, as a record can carry only one."""
    methods = (side.resign, side.claim_forfeit, side.request_takeback, side.agree_takeback)
    chosen = [act for act, wanted in zip(methods, asides, strict=True) if wanted]
    if len(chosen) > 1:
        raise UsageError(
            N_("choose one of --resign, --claim-forfeit, --takeback, --agree-takeback")
        )
    return chosen[0] if chosen else None


def _waiting(side: Side, directory: Path, shell: Shell) -> None:
    """Not this side's turn: says so, and past the deadline, how to claim the win."""
    shell.tell(_("waiting for the other side's record"))
    late = side.late(shell.now())
    if late is not None:
        shell.tell(_("it is {hours} hours past the deadline: seki play {dir} --claim-forfeit")
                   .format(hours=late, dir=directory))  # fmt: skip


def _turn(side: Side, party: Party, turn: Turn, shell: Shell, sent: _Sending) -> bool:
    """This side's decisions: the report (and the page, with --html), then the questions,
    at the terminal or on the board all on one page in the browser (play/two_party.py,
    on_the_board), and the next record written; whether it is still to send. False when
    there is no terminal to ask at and no --choose, but files were received: taking them
    in was the whole request; False on the page too, which stays while `sent` sends the
    record and then says what became of it."""
    from . import console
    from . import two_party as ui

    if not turn.board and turn.choose is None and not sys.stdin.isatty():
        if turn.received:
            shell.tell(_("your turn: play it at a terminal, or give the answers with --choose"))
            return False
        raise UsageError(console.NO_TERMINAL)
    shell.show(ui.report_of(side, party))
    if turn.html is not None:
        write_new(turn.html, ui.page_of(side, party))
        shell.tell(_("wrote {path} (open it in any browser)").format(path=turn.html))
    if turn.board:

        def ready(url: str) -> None:
            shell.tell(_("your turn is on the board: {url}").format(url=url))

        ui.on_the_board(side, party, shell.now(), ready, sent=sent, own_mail=sent.mail is None)
        return False
    ask = console.script(turn.choose) if turn.choose is not None else console.terminal()
    record = ui.AtTheTerminal(ask, shell.show)
    side.turn(record.choose, shell.now(), record.confirm)
    return True


def _over(side: Side, result: dict, turn: Turn, shell: Shell) -> None:
    """The result, and what is left to do: reveal, take the other's reveal, or claim the
    win when it is past the deadline."""
    from ..rules.vocab import other

    directory = side.root
    shell.tell(_("the game is over: {result}").format(result=words.outcome(result)))
    if not (side.root / "reveals" / f"{side.side}.txt").is_file():
        shell.tell(_("reveal your secret with: seki reveal {dir} --key {key}").format(
            dir=directory, key=turn.key))  # fmt: skip
        return
    if (side.root / "reveals" / f"{other(side.side)}.txt").is_file():
        shell.tell(_("both secrets are here: check the whole game with: seki verify {dir}")
                   .format(dir=directory))  # fmt: skip
        return
    late = side.late(shell.now())
    if late is None:
        shell.tell(_("waiting for the other side's reveal"))
    else:
        shell.tell(_("the other side's reveal is {hours} hours past the deadline: seki play "
                     "{dir} --claim-forfeit").format(hours=late, dir=directory))  # fmt: skip


@dataclass(frozen=True)
class _Sending:
    """The record just written, sent: mailed with mail settings, else for the player to
    send; what became of it, in words (said at the terminal as well)."""

    side: Side
    mail: MailSettings | None
    tell: Callable[[str], None]

    def __call__(self) -> list[str]:
        from . import two_party as ui

        path = self.side.records()[-1]
        if self.mail is None:
            said = [_("wrote {path}: send it to the other player").format(path=path)]
        else:
            said = [_("wrote {path}").format(path=path), *ui.send_mail(self.side, self.mail)]
        for line in said:
            self.tell(line)
        return said


def _take(side: Side, path: Path, now: str) -> str:
    """One received file: a record of the other side, or its reveal."""
    text = read_saved(path)
    if "format: seki-2p-reveal/1" in text:
        kept = side.take_reveal(text, str(path), now)
        return _("took {path}: the other side's secret, kept in {kept}").format(
            path=path, kept=kept)  # fmt: skip
    if any(p.read_text(encoding="utf-8") == text for p in side.records()):
        return _("{path} is already on file").format(path=path)
    side.receive(text, str(path), now)
    return _("took {path}: checked against your own engine").format(path=path)
