"""`seki play`: a whole turn in one command: the packet found and opened, the report
shown, the decision walked through with numbered choices, the turn file signed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..i18n import N_, explain, ngettext
from ..i18n import gettext as _
from ..refusal import ExitStatus, Refusal
from .answering import NOTHING_ASKED, Signing, ask_turn, on_board, on_one_page
from .common import (
    abort,
    chosen_key,
    key_option,
    lang_option,
    load_identity,
    mail_config_option,
    open_own_note,
    open_own_packet,
    tell,
    use_language,
    utc_now,
    write_new,
)
from .options import web_option

if TYPE_CHECKING:
    from ..crypto.keys import Identity
    from ..mail.settings import MailSettings
    from ..protocol.game import Definition
    from ..protocol.packets import Packet
    from ..rules.components import Components


@click.command("play")
@key_option()
@click.argument(
    "packet",
    type=click.Path(path_type=Path),
    required=False,
    help=N_(
        "The packet to answer, or your directory of a two-party game. Default: the "
        "newest unanswered packet in --from."
    ),
)
@click.option("--resign", is_flag=True, help=N_("Two-party game: concede, in your own record."))
@click.option(
    "--takeback",
    is_flag=True,
    help=N_("Two-party game: ask to take back your last record, before it is answered."),
)
@click.option(
    "--agree-takeback", is_flag=True, help=N_("Two-party game: agree to the other's takeback.")
)
@click.option(
    "--claim-forfeit",
    is_flag=True,
    help=N_(
        "Two-party game: claim the win, the other player being past the deadline "
        "with its record (or, at the end, with its reveal)."
    ),
)
@click.option(
    "--receive",
    "-r",
    type=click.Path(path_type=Path),
    multiple=True,
    help=N_(
        "Two-party game: a file the other player sent (its record or its reveal) "
        "to check and take in first; repeatable."
    ),
)
@click.option(
    "--from",
    "folder",
    type=click.Path(path_type=Path),
    help=N_(
        "Where your packets are, when no PACKET is named. Default: your mailbox "
        "if you have mail settings, else the current folder."
    ),
)
@mail_config_option()
@click.option("--send", is_flag=True, help=N_("Mail the signed turn file to the referee (SMTP)."))
@click.option(
    "--choose",
    help=N_(
        "Answer the questions from this script instead of the terminal: choice "
        "numbers in order, separated by commas; several numbers of one answer joined "
        "by '+'; '-' for the default; 'u' undoes the last answer. E.g. 3,1,-,2+4,1"
    ),
)
@click.option(
    "--html", type=click.Path(path_type=Path), help=N_("Also write the report, with the map, here.")
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help=N_("Default: turn-<game>-<seq>-<side>.signed.txt"),
)
@click.option(
    "--plan",
    is_flag=True,
    help=N_(
        "First file a battle plan (standing orders for your combat decisions) "
        "from plain questions; it rides with your turn, or goes alone."
    ),
)
@web_option
@lang_option
def play(
    key: str | None,
    packet: Path | None,
    resign: bool,
    takeback: bool,
    agree_takeback: bool,
    claim_forfeit: bool,
    receive: tuple[Path, ...],
    folder: Path | None,
    mail_config: Path | None,
    send: bool,
    choose: str | None,
    html: Path | None,
    out: Path | None,
    plan: bool,
    web: bool | None,
    lang: str | None,
) -> None:
    """Play your turn: show the packet's report, ask for your decision step by step with
    numbered choices (every legal action can be built; u undoes) or on the board in your
    browser (--web), then sign the turn file and seal it for the referee's eyes only, ready
    to mail. No YAML to write."""
    from ..play import console

    use_language(lang)
    board = on_board(web, choose)
    if packet is not None and packet.is_dir():  # the player's own directory of a game
        from ..games import Shell, Turn, open_game

        key = chosen_key(key)
        asides = (resign, claim_forfeit, takeback, agree_takeback)
        turn = Turn(packet, load_identity(key), key, list(receive), choose, mail_config, asides,
                    html, board)  # fmt: skip
        open_game(packet).play(turn, Shell(click.echo, tell, utc_now))
        return
    if not board:
        _need_answers(choose)
    identity = load_identity(key)
    mail = _mail_settings(mail_config, folder, send)
    named = packet is not None
    if packet is None:
        packet = _find_packet(folder, mail, identity, send, choose, plan)
        if packet is None:
            return
    definition, opened, comp, earlier = _open(packet, identity, plan, named)
    signing = Signing(definition, opened, identity, comp, out, mail if send else None)
    if board:
        on_one_page(signing, earlier, html, plan, packet)
        return
    ask = console.script(choose) if choose is not None else console.terminal()
    actions = ask_turn(definition, opened, comp, earlier, ask, html, plan)
    if not actions:
        abort(_(NOTHING_ASKED).format(path=packet))
    signing.sign(actions, tell)


def _need_answers(choose: str | None) -> None:
    """Refuses at once (exit 2, a usage error) a run that could never be answered: no
    terminal to ask at and no --choose script, as under cron or a pipe; else the player
    would learn it only after the mail was fetched and the report shown."""
    from ..play.console import NO_TERMINAL

    if choose is None and not sys.stdin.isatty():
        abort(_(NO_TERMINAL), ExitStatus.USAGE)


def _mail_settings(
    mail_config: Path | None, folder: Path | None, send: bool
) -> MailSettings | None:
    """The player's mail settings, read only when they are needed: to fetch the packets
    (no --from) or to mail the turn (--send). --send without them is refused before any
    question is asked, not after the turn is played."""
    from ..play import mailbox

    if send:
        return mailbox.for_sending(mail_config)
    return mailbox.settings(mail_config) if folder is None else None


def _find_packet(
    folder: Path | None,
    mail: MailSettings | None,
    identity: Identity,
    send: bool,
    choose: str | None,
    plan: bool,
) -> Path | None:
    """The packet to answer when none is named: the newest unanswered one in --from, else
    in the mail just fetched, else in the current folder. None when the mail only started
    games (joins and seeds sent) and no packet has come yet: that is news, not an error."""
    from ..play import inbox

    opened_games: list[str] = []
    mailed = mail if folder is None else None  # the packets come by mail
    if mailed is not None:
        folder, opened_games = _collect_mail(mailed, identity, send, interactive=choose is None)
    where = folder or Path(".")
    try:
        return inbox.newest(where, identity, asked_only=not plan)
    except Refusal:
        if not opened_games and not (mailed is not None and inbox.not_started(where, identity)):
            raise
    tell(_("no packet yet: the game starts when both sides have sent their seeds"))
    return None


def _collect_mail(
    mail: MailSettings, identity: Identity, send: bool, interactive: bool
) -> tuple[Path, list[str]]:
    """Fetches the player's mail into its folder, says the referee's notes of refused
    files, and joins and seeds the games the mail opens (_opening): a player who only
    runs `seki play` gets into a game too. The folder, and what the opening sent."""
    from ..play import mailbox

    folder, fetched, notes = mailbox.collect(mail)
    tell(ngettext("mail: {n} new message", "mail: {n} new messages", fetched).format(n=fetched))
    for note in notes:
        _show_note(note, identity)
    return folder, _opening(identity, mail if send else None, interactive)


def _open(
    packet: Path, identity: Identity, plan: bool, named: bool
) -> tuple[Definition, Packet, Components, list[Packet]]:
    """The packet of a refereed game opened, with the packets since the player's last
    turn (its story). A packet named on the command line must be one the player may still
    answer (play/inbox.py)."""
    from ..play import inbox
    from ..protocol.component_files import load_components

    definition, opened = open_own_packet(packet, identity)
    if named and not plan:  # a battle plan may be filed with any packet
        inbox.check_answerable(packet, definition.game_id, opened.seq, identity)
    tell(_("packet {path}").format(path=packet))
    earlier = [
        open_own_packet(path, identity)[1]
        for path in inbox.since_answered(packet.parent, identity, definition.game_id, opened.seq)
    ]
    return definition, opened, load_components(), earlier


def _opening(identity, mail, interactive: bool) -> list[str]:
    """Before a game starts: join the invitations the player agrees to, and send the
    seed when the other side's join has come (play/autoplay.py); by mail with --send,
    else as files to mail. With --send, a join or a seed written by an earlier run
    without it goes first (play/mailbox.py, `send_unsent`). What was done, in words."""
    from ..crypto.keystore import default_dir
    from ..play import autoplay, mailbox

    done = mailbox.send_unsent(mail, default_dir()) if mail is not None else []
    for line in done:
        tell(line)

    def accept(definition, side: str) -> bool:
        question = _(
            "You are invited to play {side} in game {game} by the referee {referee} "
            "(fingerprint {fingerprint}; compare it with the referee by another channel). "
            "Join?"
        ).format(side=side, game=definition.game_id, referee=definition.referee.name,
                 fingerprint=definition.referee.fingerprint)  # fmt: skip
        if interactive:
            return click.confirm(question, default=False)
        tell(question + " " + _("(answer at a terminal, or: seki join game.txt)"))
        return False

    def here(definition, path: Path, subject: str) -> str:
        write_new(Path(path.name), path.read_text(encoding="utf-8"))
        text = _("wrote {path}: mail it to the referee, or let seki play --send mail it")
        return text.format(path=path.name)

    report = autoplay.Pass()
    deliver = autoplay.mailer(mail) if mail is not None else here
    autoplay.opening(identity, deliver, accept, report)
    for line in report.sent:
        tell(line)
    for line in report.problems:
        click.echo(f"seki: {line}", err=True)
    return done + report.sent


def _show_note(path: Path, identity: Identity) -> None:
    """A sealed note from the referee's robot, fetched with the mail: why it refused one
    of your files (a note that does not open is named, and play goes on)."""
    try:
        reasons = open_own_note(path, identity) or []
    except Refusal as exc:
        text = _("seki: a note from the referee could not be opened: {reason}")
        click.echo(text.format(reason=explain(exc)), err=True)
        return
    tell(_("The referee refused a file of yours ({name}):").format(name=path.name))
    for reason in reasons:
        tell(f"  - {reason}")
