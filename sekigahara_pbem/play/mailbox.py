"""The player's own mailbox: packets collected from the IMAP box or maildir named in the
player's mail settings (the referee's format, docs/referee.md, with `from` the player's
address; `maildir = "..."` for a local maildir) into the key directory, and a signed turn
file mailed to the game's referee by SMTP.

Mail is fetched into a spool in the key directory (`mail/`), as the referee's robot does,
but from an IMAP folder only seki's messages are read, and no flag changes: the folder
holds the player's own mail too (mail/incoming.py, `from_imap`). Each document found in
a message is kept by play/filing.py, only once its signature checks where it can be
checked, and under a hash of its own text: packets under
`packets/`, where `seki play` looks for the newest authentic one to answer (play/inbox.py);
invitations and the other side's joins for `seki bot run` (play/autoplay.py); two-party
records and reveals for `seki play DIR` (play/two_party.py).
"""

from __future__ import annotations

from pathlib import Path

from ..crypto.keystore import default_dir
from ..i18n import N_
from ..i18n import gettext as _
from ..mail import incoming as mail_in
from ..mail import settings as mail_config
from ..mail.outgoing import Spool, message, send_outbox
from ..mail.settings import MailSettings
from ..protocol.game import Definition
from ..protocol.notes import is_note
from ..refusal import Code, Refusal, UserError
from . import filing, inbox


def settings(path: Path | None) -> MailSettings | None:
    """The player's mail settings: from `path` if given (it must exist), else from the
    default place if there are any there (None: play from a folder)."""
    chosen = path or mail_config.default_path()
    if path is None and not chosen.is_file():
        return None
    return mail_config.load(chosen)


def collect(mail: MailSettings) -> tuple[Path, int, list[Path]]:
    """Fetch new mail and keep every document it carries that passes its check
    (play/filing.py); the folder of packets, how many new messages came, and the sealed
    notes that came with them."""
    home = default_dir()
    spool = Spool(home / "mail")
    if mail.imap is not None:
        # the player's own mail: only seki's is read, and no flag is changed
        fetched = mail_in.from_imap(spool, mail.imap, seki_only=True)
    elif mail.maildir is not None:
        fetched = mail_in.from_maildir(spool, mail.maildir)
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
    spool = Spool(default_dir() / "mail")
    msg = message(
        mail.sender, to, f"[seki {game_id}] {subject}",
        _("My record is attached."), [(path.name, path.read_text(encoding="utf-8"))],
        automatic="no",
    )  # fmt: skip
    spool.queue(f"{game_id}-{path.stem}", msg)
    delivery = send_outbox(spool, mail)
    if delivery.failed:
        failed = "; ".join(f"{n}: {e}" for n, e in delivery.failed.items())
        raise UserError(_not_sent(spool, failed), code=Code.MAIL)
    return _("mailed {name} to {to}").format(name=path.name, to=to)


def send(mail: MailSettings, definition: Definition, turn: Path, subject: str) -> str:
    """Mail a signed turn file to the game's referee; the outcome in words (a message
    that could not be sent stays in the outbox and is sent by the next `seki play`)."""
    to = (definition.addresses or {}).get("referee")
    if to is None:
        raise Refusal(N_("game.txt names no referee address: mail {path} yourself"), path=turn)
    spool = Spool(default_dir() / "mail")
    text = turn.read_text(encoding="utf-8")
    msg = message(
        mail.sender, to, f"[seki {definition.game_id}] {subject}",
        _("My turn file is attached."), [(turn.name, text)], automatic="no",
    )  # fmt: skip
    spool.queue(turn.stem, msg)
    delivery = send_outbox(spool, mail)
    if delivery.failed:
        failed = "; ".join(f"{n}: {e}" for n, e in delivery.failed.items())
        raise UserError(_not_sent(spool, failed), code=Code.MAIL)
    return _("mailed {name} to the referee ({to})").format(name=turn.name, to=to)


def _not_sent(spool: Spool, failed: str) -> str:
    """Why a message stayed in the outbox, in the reader's language."""
    text = _("not sent (kept in {folder}): {failed}")
    return text.format(folder=spool.folder("outbox"), failed=failed)
