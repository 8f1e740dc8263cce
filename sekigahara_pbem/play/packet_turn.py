"""`seki play` in a referee's game: the packet named, else the newest unanswered one in
--from or in the mail just fetched (joining and seeding the games the mail opens on the
way), opened, its report shown, the decision asked at the terminal or on the page, and
the turn file signed, sealed for the referee and, with --send, mailed. The command only
reads its options (`games.Turn`) and the words go out through `games.Shell`, as a
two-party side's turn's (play/side_turn.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import explain, ngettext
from ..i18n import gettext as _
from ..protocol.store import write_new
from ..refusal import Code, Refusal, UsageError
from .answering import NOTHING_ASKED, Answering, Signing, ask_turn, on_one_page
from .own import open_own_note, open_own_packet

if TYPE_CHECKING:
    from ..crypto.keys import Identity
    from ..games import Shell, Turn
    from ..mail.settings import MailSettings


def play(turn: Turn, shell: Shell) -> None:
    """The packet `turn.path` names (else the newest unanswered one) answered as `turn`
    asks: at the terminal, by its --choose script or on the board."""
    from . import console

    if not turn.board:
        _need_answers(turn.choose)
    named = turn.path is not None
    mail = _mail_settings(turn.mail_config, not named and turn.folder is None, turn.send)
    packet = turn.path or _find_packet(turn, mail, shell)
    if packet is None:
        return
    answering = _open(packet, turn.identity, turn.plan, named, shell)
    signing = Signing(answering.definition, answering.opened, turn.identity, answering.comp,
                      turn.out, mail if turn.send else None)  # fmt: skip
    if turn.board:
        on_one_page(signing, list(answering.earlier), turn.html, turn.plan, packet, shell)
        return
    ask = console.script(turn.choose) if turn.choose is not None else console.terminal()
    actions = ask_turn(answering, shell, ask, turn.html, turn.plan)
    if not actions:
        raise Refusal(NOTHING_ASKED, code=Code.NOT_ASKED, path=packet)
    signing.sign(actions, shell.tell)


def _need_answers(choose: str | None) -> None:
    """Refuses at once (exit 2, a usage error) a run that could never be answered: no
    terminal to ask at and no --choose script, as under cron or a pipe; else the player
    would learn it only after the mail was fetched and the report shown."""
    from .console import NO_TERMINAL

    if choose is None and not sys.stdin.isatty():
        raise UsageError(NO_TERMINAL)


def _mail_settings(mail_config: Path | None, fetch: bool, send: bool) -> MailSettings | None:
    """The player's mail settings, read only when they are needed: to `fetch` the packets
    (none named, no --from) or to mail the turn (--send). --send without them is refused
    before any question is asked, not after the turn is played."""
    from . import mailbox

    if send:
        return mailbox.for_sending(mail_config)
    return mailbox.settings(mail_config) if fetch else None


def _find_packet(turn: Turn, mail: MailSettings | None, shell: Shell) -> Path | None:
    """The packet to answer when none is named: the newest unanswered one in --from, else
    in the mail just fetched, else in the current folder. None when the mail only started
    games (joins and seeds sent) and no packet has come yet: that is news, not an error."""
    from . import inbox

    opened_games: list[str] = []
    folder = turn.folder
    mailed = mail if folder is None else None  # the packets come by mail
    if mailed is not None:
        folder, opened_games = _collect_mail(mailed, turn, shell)
    where = folder or Path(".")
    try:
        return inbox.newest(where, turn.identity, asked_only=not turn.plan)
    except Refusal:
        if not opened_games and not (
            mailed is not None and inbox.not_started(where, turn.identity)
        ):
            raise
    shell.tell(_("no packet yet: the game starts when both sides have sent their seeds"))
    return None


def _collect_mail(mail: MailSettings, turn: Turn, shell: Shell) -> tuple[Path, list[str]]:
    """Fetches the player's mail into its folder, says the referee's notes of refused
    files, and joins and seeds the games the mail opens (_opening): a player who only
    runs `seki play` gets into a game too. The folder, and what the opening sent."""
    from . import mailbox

    folder, fetched, notes = mailbox.collect(mail)
    said = ngettext("mail: {n} new message", "mail: {n} new messages", fetched)
    shell.tell(said.format(n=fetched))
    for note in notes:
        _show_note(note, turn.identity, shell)
    return folder, _opening(mail if turn.send else None, turn, shell)


def _open(packet: Path, identity: Identity, plan: bool, named: bool, shell: Shell) -> Answering:
    """The packet of a refereed game opened, with the packets since the player's last
    turn (its story). A packet named on the command line must be one the player may still
    answer (play/inbox.py)."""
    from ..protocol.component_files import load_components
    from . import inbox

    definition, opened = open_own_packet(packet, identity)
    if named and not plan:  # a battle plan may be filed with any packet
        inbox.check_answerable(packet, definition.game_id, opened.seq, identity)
    shell.tell(_("packet {path}").format(path=packet))
    earlier = [
        open_own_packet(path, identity)[1]
        for path in inbox.since_answered(packet.parent, identity, definition.game_id, opened.seq)
    ]
    return Answering(definition, opened, load_components(), earlier)


def _opening(mail: MailSettings | None, turn: Turn, shell: Shell) -> list[str]:
    """Before a game starts: join the invitations the player agrees to, and send the
    seed when the other side's join has come (play/autoplay.py); by mail with --send,
    else as files to mail. With --send, a join or a seed written by an earlier run
    without it goes first (play/mailbox.py, `send_unsent`). What was done, in words."""
    from ..crypto.keystore import default_dir
    from . import autoplay, mailbox

    done = mailbox.send_unsent(mail, default_dir()) if mail is not None else []
    for line in done:
        shell.tell(line)

    def accept(definition, side: str) -> bool:  # noqa: ANN001
        question = _(
            "You are invited to play {side} in game {game} by the referee {referee} "
            "(fingerprint {fingerprint}; compare it with the referee by another channel). "
            "Join?"
        ).format(side=side, game=definition.game_id, referee=definition.referee.name,
                 fingerprint=definition.referee.fingerprint)  # fmt: skip
        if turn.choose is None:
            return shell.confirm(question)
        shell.tell(question + " " + _("(answer at a terminal, or: seki join game.txt)"))
        return False

    def here(definition, path: Path, subject: str) -> str:  # noqa: ANN001
        write_new(Path(path.name), path.read_text(encoding="utf-8"))
        text = _("wrote {path}: mail it to the referee, or let seki play --send mail it")
        return text.format(path=path.name)

    report = autoplay.Pass()
    deliver = autoplay.mailer(mail) if mail is not None else here
    autoplay.opening(turn.identity, deliver, accept, report)
    for line in report.sent:
        shell.tell(line)
    for line in report.problems:
        shell.tell(f"seki: {line}")
    return done + report.sent


def _show_note(path: Path, identity: Identity, shell: Shell) -> None:
    """A sealed note from the referee's robot, fetched with the mail: why it refused one
    of your files (a note that does not open is named, and play goes on)."""
    try:
        reasons = open_own_note(path, identity) or []
    except Refusal as exc:
        text = _("seki: a note from the referee could not be opened: {reason}")
        shell.tell(text.format(reason=explain(exc)))
        return
    shell.tell(_("The referee refused a file of yours ({name}):").format(name=path.name))
    for reason in reasons:
        shell.tell(f"  - {reason}")
