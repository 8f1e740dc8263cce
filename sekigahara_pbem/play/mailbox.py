"""The player's own mailbox: packets collected from the IMAP box or maildir named in the
player's mail settings (the referee's format, docs/referee.md, with `from` the player's
address; `maildir = "..."` for a local maildir) into the key directory, and a signed turn
file mailed to the game's referee by SMTP.

Mail is fetched into a spool in the key directory (`mail/`), as the referee's robot does,
but from an IMAP folder or a maildir only seki's messages are read, and no flag changes:
the folder holds the player's own mail too (mail/incoming.py, `seki_only`). Each document
found in a message is kept by play/filing.py, only once its signature checks where it can
be checked, and under a hash of its own text: packets under `packets/`, where `seki play`
looks for the newest authentic one to answer (play/inbox.py); invitations and the other
side's joins for `seki bot run` (play/autoplay.py); two-party records and reveals for
`seki play DIR` (play/two_party.py).

What seki writes for a referee (a join, a seed) is kept in `sent/`; the spool remembers
each message it ever queued, so a file is mailed once, by whichever `--send` comes first.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..crypto.keystore import default_dir
from ..i18n import N_
from ..i18n import gettext as _
from ..mail import incoming as mail_in
from ..mail import settings as mail_config
from ..mail.outgoing import Spool, message, send_outbox
from ..mail.settings import MailSettings
from ..protocol import binding, joins
from ..protocol import documents as docs
from ..protocol.game import Definition
from ..protocol.notes import is_note
from ..refusal import Code, Refusal, UserError
from ..rules.vocab import other
from . import filing, inbox

SENT = "sent"  # the key directory's folder of the files seki wrote for a game's referee


def settings(path: Path | None) -> MailSettings | None:
    """The player's mail settings: from `path` if given (it must exist), else from the
    default place if there are any there (None: play from a folder)."""
    chosen = path or mail_config.default_path()
    if path is None and not chosen.is_file():
        return None
    return mail_config.load(chosen)


def for_sending(path: Path | None) -> MailSettings:
    """The player's mail settings, which --send needs: refused where there are none,
    before anything is asked or written."""
    mail = settings(path)
    if mail is None:
        raise Refusal(N_("--send needs your mail settings (see seki docs play)"))
    return mail


def for_robot(path: Path | None) -> MailSettings:
    """The bot's mail settings, which `seki bot run` needs in either mode: refused where
    there are none, before any mail is fetched."""
    mail = settings(path)
    if mail is None:
        raise Refusal(N_("seki bot run needs your mail settings (seki docs play): --mail FILE"))
    return mail


def collect(mail: MailSettings) -> tuple[Path, int, list[Path]]:
    """Fetch new mail and keep every document it carries that passes its check
    (play/filing.py); the folder of packets, how many new messages came, and the sealed
    notes that came with them."""
    home = default_dir()
    spool = Spool(home / "mail")
    # the player's own mail: only seki's is read, and no flag is changed
    if mail.imap is not None:
        fetched = mail_in.from_imap(spool, mail.imap, seki_only=True)
    elif mail.maildir is not None:
        fetched = mail_in.from_maildir(spool, mail.maildir, seki_only=True)
    else:
        raise Refusal(N_("the mail settings name no [imap] server and no maildir to read"))
    games = inbox.joined_games(home)
    new_notes: list[Path] = []
    for path in sorted(spool.folder("inbox").glob("*.eml")):
        try:
            found = mail_in.documents(mail_in.parse(path.read_bytes()))
        except mail_in.HostileMail:
            found = []  # no mail client sends such a message: kept, never read
        for document in found:
            kept = filing.keep(home, games, document)
            if kept is not None and is_note(document) and kept not in new_notes:
                new_notes.append(kept)
        path.replace(spool.folder("processed") / path.name)
    folder = home / "packets"
    folder.mkdir(parents=True, exist_ok=True)
    return folder, fetched, new_notes


def send_to(mail: MailSettings, to: str, game_id: str, path: Path, subject: str) -> str:
    """Mail a file to a player; the outcome in words (a message that could not be sent
    stays in the outbox, sent by the next pass)."""
    words = _("My record is attached.")
    _post(mail, to, game_id, subject, words, path, f"{game_id}-{path.stem}")
    return _("mailed {name} to {to}").format(name=path.name, to=to)


def send(mail: MailSettings, definition: Definition, turn: Path, subject: str) -> str:
    """Mail a signed turn file to the game's referee; the outcome in words (a message
    that could not be sent stays in the outbox and is sent by the next `seki play`)."""
    to = (definition.addresses or {}).get("referee")
    if to is None:
        raise Refusal(N_("game.txt names no referee address: mail {path} yourself"), path=turn)
    words = _("My turn file is attached.")
    new, sent = _post(mail, to, definition.game_id, subject, words, turn, turn.stem)
    if not new and turn.stem not in sent:
        return _("{name} was mailed to the referee before: not sent again").format(name=turn.name)
    return _("mailed {name} to the referee ({to})").format(name=turn.name, to=to)


def _post(
    mail: MailSettings, to: str, game_id: str, subject: str, words: str, path: Path, name: str
) -> tuple[bool, list[str]]:
    """Queue a message to `to` with `path` attached under `name` (a name is queued once,
    ever, in either mode) and send the outbox: whether it was queued now, and the
    messages sent. Refused (Code.MAIL) when one could not be sent: it stays in the
    outbox for the next pass."""
    spool = Spool(default_dir() / "mail")
    msg = message(
        mail.sender, to, f"[seki {game_id}] {subject}",
        words, [(path.name, path.read_text(encoding="utf-8"))], automatic="no",
    )  # fmt: skip
    new = spool.queue(name, msg)
    delivery = send_outbox(spool, mail)
    if delivery.failed:
        failed = "; ".join(f"{n}: {e}" for n, e in delivery.failed.items())
        raise UserError(_not_sent(spool, failed), code=Code.MAIL)
    return new, delivery.sent


def unsent(home: Path) -> list[Path]:
    """The joins and seeds seki wrote for a referee (`sent/`, kept by `seki play` and
    `seki join`) that were never put in the mail: written without --send, for the player
    to mail. The mail spool names every message it ever queued, so none is found twice."""
    folder, spool = home / SENT, Spool(home / "mail")
    found = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    return [p for p in found if p.name.startswith(("join-", "seed-")) and not spool.queued(p.stem)]


def send_unsent(mail: MailSettings, home: Path) -> list[str]:
    """Mail each file `unsent` finds whose game still waits for it, once; what was done,
    in words. A file the referee evidently holds is left: a join once the other side's
    join has come (the referee sends it only when both are in), a join or a seed once the
    game has started (the player mailed it by hand)."""
    games = inbox.joined_games(home)
    started = {head["game"] for _, _, head in inbox.packets(home / "packets", games)}
    received = {(d.game_id, j.side) for d, j in _joins_received(home, games)}
    done = []
    for path in unsent(home):
        text = docs.read_capped(path)
        join = f"format: {joins.JOIN_FORMAT}" in text[: filing.HEAD]
        definition = games.get(docs.peek_game(text, path.name))
        if definition is None or definition.game_id in started or not bound(definition, text):
            continue
        if join and (definition.game_id, _other_side(definition, text, path)) in received:
            continue
        what = "join" if join else "seed"
        outcome = send(mail, definition, path, f"{what} {definition.game_id}")
        done.append(_("written earlier without --send: {outcome}").format(outcome=outcome))
    return done


def seeds_made(definition: Definition, side: str) -> dict[str, joins.SeedFile]:
    """The seeds this side made in this game (the key directory's `sent/`), by file name:
    one per join of the other side it answered. A seed of an earlier game of the same id
    (a rematch) is another game's and left out."""
    first = f"seed-{definition.game_id}-{side}"
    named = re.compile(re.escape(first) + r"(-[0-9a-f]{24})?\.txt")
    folder = default_dir() / SENT
    made = {}
    for path in sorted(folder.glob(f"{first}*.txt")) if folder.is_dir() else []:
        text = docs.read_capped(path)
        if named.fullmatch(path.name) and bound(definition, text):
            made[path.name] = joins.parse_seed(definition, text, path.name)
    return made


def seed_name(definition: Definition, side: str, join: str) -> str:
    """The file name of a new seed answering `join`: the plain one, or, where a seed of
    another join of the other side's already has it, one that names this join."""
    first = f"seed-{definition.game_id}-{side}"
    if (default_dir() / SENT / f"{first}.txt").exists():
        return f"{first}-{filing.digest(join)}.txt"
    return f"{first}.txt"


def bound(definition: Definition, text: str) -> bool:
    """Whether a document seki wrote names this game's definition (protocol/binding.py):
    an earlier game of the same id (a rematch) is another game, whose files stay where
    they are."""
    return f"\n{binding.FIELD}: {definition.hash}\n" in text[: filing.HEAD]


def _other_side(definition: Definition, join: str, path: Path) -> str:
    """The side a game's other player plays, as a join of this player names its own."""
    return other(joins.parse_join(definition, join, path.name).side)


def _joins_received(
    home: Path, games: dict[str, Definition]
) -> list[tuple[Definition, joins.Join]]:
    """The other sides' joins filed from the mail (play/filing.py), checked again."""
    folder = home / "joins"
    paths = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    found = [filing.other_join(games, docs.read_capped(p)) for p in paths]
    return [f for f in found if f is not None]


def _not_sent(spool: Spool, failed: str) -> str:
    """Why a message stayed in the outbox, in the reader's language."""
    text = _("not sent (kept in {folder}): {failed}")
    return text.format(folder=spool.folder("outbox"), failed=failed)


def mail_link(to: str, game_id: str, subject: str, file: Path, words: str) -> tuple[str, str]:
    """A mailto: link that starts the player's own mail client, addressed to `to` (none
    where the game names no address) with the subject seki's mail would carry, and its
    words: the file must be attached by hand, as a link cannot carry it."""
    from urllib.parse import quote

    subject = f"[seki {game_id}] {subject}"
    body = _("My turn file is attached: {name}").format(name=file.name)
    href = f"mailto:{quote(to, safe='@')}?subject={quote(subject)}&body={quote(body)}"
    return href, words
