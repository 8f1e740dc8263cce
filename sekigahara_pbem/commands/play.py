"""`seki play`: a whole turn in one command: the packet found and opened, the report
shown, the decision walked through with numbered choices, the turn file signed."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .. import words
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
    read_text,
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
    from ..twoparty.exchange import Party
    from ..twoparty.side import Side


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
    if packet is not None and packet.is_dir():
        endings = (resign, claim_forfeit, takeback, agree_takeback)
        _two_party(packet, key, list(receive), choose, mail_config, endings, html, board)
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


NO_TERMINAL = N_(
    "seki play asks its questions at a terminal; without one, give the answers with --choose "
    "(see seki play --help)"
)


def _need_answers(choose: str | None) -> None:
    """Refuses at once (exit 2, a usage error) a run that could never be answered: no
    terminal to ask at and no --choose script, as under cron or a pipe; else the player
    would learn it only after the mail was fetched and the report shown."""
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


def _two_party(
    directory: Path,
    key: str | None,
    received: list[Path],
    choose: str | None,
    mail_config: Path | None,
    asides: tuple[bool, bool, bool, bool],
    html: Path | None = None,
    board: bool = False,
) -> None:
    """A two-party game's turn (docs/two-party.md): take in what the other side sent (by
    mail, with mail settings), show the report, ask this side's decisions (at the
    terminal, or with `board` on the page), and write its next record to send (mailed,
    with mail settings)."""
    from ..play import mailbox
    from ..twoparty import is_two_party
    from ..twoparty import side as sides

    if not is_two_party(directory):
        abort(_("{path} is not a two-party game's directory").format(path=directory))
    key = chosen_key(key)
    side = sides.open_side(directory, load_identity(key))
    mail = mailbox.settings(mail_config) if side.game.addresses else None
    _take_in(side, mail, received)
    party = side.load()
    chosen = _one_aside(side, asides)
    sent = _Sending(side, mail)
    if party.result is not None and chosen != side.claim_forfeit:
        _over(side, party.result, directory, key)
    elif _next_record(side, party, chosen, directory, choose, bool(received), html, board, sent):
        sent()


def _next_record(
    side: Side,
    party: Party,
    chosen: Callable[[str], str] | None,
    directory: Path,
    choose: str | None,
    received: bool,
    html: Path | None,
    board: bool,
    sent: _Sending,
) -> bool:
    """This side's next record, of whichever kind is due: the one the player chose
    (--resign, --takeback...), the first one (its randomness alone), or a turn. Whether
    it is still to send: False when none was written (it is the other side's turn, or no
    one was there to ask), or the page sent it (`sent`) before it closed."""
    from ..play import console
    from ..play import two_party as ui

    if chosen is not None:
        chosen(utc_now())
    elif side.whose_turn() != side.side:
        _waiting(side, directory)
        return False
    elif ui.randomness_only(party):
        tell(_("your first record carries only your randomness: your own setup draws are "
                     "bound with the other side's, which comes in its answer"))  # fmt: skip
        side.turn(ui.chooser(console.script(""), click.echo), utc_now())
    else:
        return _two_party_turn(side, party, choose, received, html, board, sent)
    return True


def _take_in(side: Side, mail: MailSettings | None, received: list[Path]) -> None:
    """What the other side sent, taken in before anything is shown or asked: from the
    mailbox (with mail settings), then each --receive file, each checked on the way in."""
    from ..play import two_party as ui

    for line in ui.take_mail(side, mail, utc_now()) if mail is not None else []:
        tell(line)
    for path in received:
        tell(_take(side, path))


def _one_aside(side: Side, asides: tuple[bool, bool, bool, bool]) -> Callable[[str], str] | None:
    """The Side method named by --resign, --claim-forfeit, --takeback or --agree-takeback,
    or None; two of them at once are refused, as a record can carry only one."""
    methods = (side.resign, side.claim_forfeit, side.request_takeback, side.agree_takeback)
    chosen = [act for act, wanted in zip(methods, asides, strict=True) if wanted]
    if len(chosen) > 1:
        abort(
            _("choose one of --resign, --claim-forfeit, --takeback, --agree-takeback"),
            ExitStatus.USAGE,
        )
    return chosen[0] if chosen else None


def _waiting(side: Side, directory: Path) -> None:
    """Not this side's turn: says so, and past the deadline, how to claim the win."""
    tell(_("waiting for the other side's record"))
    late = side.late(utc_now())
    if late is not None:
        tell(_("it is {hours} hours past the deadline: seki play {dir} --claim-forfeit")
                   .format(hours=late, dir=directory))  # fmt: skip


def _two_party_turn(
    side: Side,
    party: Party,
    choose: str | None,
    received: bool,
    html: Path | None,
    board: bool,
    sent: _Sending,
) -> bool:
    """This side's decisions: the report (and the page, with --html), then the questions,
    at the terminal or with `board` all on one page in the browser (play/two_party.py,
    on_the_board), and the next record written; whether it is still to send. False when
    there is no terminal to ask at and no --choose, but files were received: taking them
    in was the whole request; False on the page too, which stays while `sent` sends the
    record and then says what became of it."""
    from ..play import console
    from ..play import two_party as ui

    if not board and choose is None and not sys.stdin.isatty():
        if received:
            tell(_("your turn: play it at a terminal, or give the answers with --choose"))
            return False
        abort(_(NO_TERMINAL), ExitStatus.USAGE)
    click.echo(ui.report_of(side, party))
    if html is not None:
        write_new(html, ui.page_of(side, party))
        tell(_("wrote {path} (open it in any browser)").format(path=html))
    if board:

        def ready(url: str) -> None:
            tell(_("your turn is on the board: {url}").format(url=url))

        ui.on_the_board(side, party, utc_now(), ready, sent=sent, own_mail=sent.mail is None)
        return False
    ask = console.script(choose) if choose is not None else console.terminal()
    record = ui.AtTheTerminal(ask, click.echo)
    side.turn(record.choose, utc_now(), record.confirm)
    return True


def _over(side: Side, result: dict, directory: Path, key: str) -> None:
    """The result, and what is left to do: reveal, take the other's reveal, or claim the
    win when it is past the deadline."""
    from ..rules.vocab import other

    tell(_("the game is over: {result}").format(result=words.outcome(result)))
    if not (side.root / "reveals" / f"{side.side}.txt").is_file():
        tell(_("reveal your secret with: seki reveal {dir} --key {key}").format(
            dir=directory, key=key))  # fmt: skip
        return
    if (side.root / "reveals" / f"{other(side.side)}.txt").is_file():
        tell(_("both secrets are here: check the whole game with: seki verify {dir}")
                   .format(dir=directory))  # fmt: skip
        return
    late = side.late(utc_now())
    if late is None:
        tell(_("waiting for the other side's reveal"))
    else:
        tell(_("the other side's reveal is {hours} hours past the deadline: seki play "
                     "{dir} --claim-forfeit").format(hours=late, dir=directory))  # fmt: skip


@dataclass(frozen=True)
class _Sending:
    """The record just written, sent: mailed with mail settings, else for the player to
    send; what became of it, in words (said at the terminal as well)."""

    side: Side
    mail: MailSettings | None

    def __call__(self) -> list[str]:
        from ..play import two_party as ui

        path = self.side.records()[-1]
        if self.mail is None:
            said = [_("wrote {path}: send it to the other player").format(path=path)]
        else:
            said = [_("wrote {path}").format(path=path), *ui.send_mail(self.side, self.mail)]
        for line in said:
            tell(line)
        return said


def _take(side: Side, path: Path) -> str:
    """One received file: a record of the other side, or its reveal."""
    text = read_text(path)
    if "format: seki-2p-reveal/1" in text:
        kept = side.take_reveal(text, str(path), utc_now())
        return _("took {path}: the other side's secret, kept in {kept}").format(
            path=path, kept=kept)  # fmt: skip
    if any(p.read_text(encoding="utf-8") == text for p in side.records()):
        return _("{path} is already on file").format(path=path)
    side.receive(text, str(path), utc_now())
    return _("took {path}: checked against your own engine").format(path=path)
