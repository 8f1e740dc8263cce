"""The player's own mailbox: packets collected from the IMAP box or maildir named in the
player's mail settings (the referee's format, docs/referee.md, with `from` the player's
address; `maildir = "..."` for a local maildir) into the key directory, and a signed turn
file mailed to the game's referee by SMTP.

Mail is fetched into a spool in the key directory (`mail/`), as the referee's robot does;
every packet found in a message is kept as `packets/<game>-<seq>-<side>.txt`, where
`seki play` looks for the newest one to answer; invitations and the other side's joins
are kept for `seki bot run` (play/autoplay.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..crypto.keystore import default_dir
from ..i18n import N_
from ..i18n import gettext as _
from ..pbem import documents as docs
from ..pbem import mail_config, mail_in
from ..pbem.game import GAME_FORMAT, Definition
from ..pbem.joins import JOIN_FORMAT
from ..pbem.mail_config import MailSettings
from ..pbem.mail_out import Spool, message, send_outbox
from ..pbem.notes import is_note
from ..pbem.store import write_atomic
from ..refusal import Refusal
from ..rules.vocab import SIDES
from .inbox import public_part


def settings(path: Path | None) -> MailSettings | None:
    """The player's mail settings: from `path` if given (it must exist), else from the
    default place if there are any there (None: play from a folder)."""
    chosen = path or mail_config.default_path()
    if path is None and not chosen.is_file():
        return None
    return mail_config.load(chosen)


def collect(mail: MailSettings) -> tuple[Path, int, list[Path]]:
    """Fetch new mail and keep every packet and sealed note it carries; the folder of
    packets, how many new messages came, and the notes that came with them."""
    home = default_dir()
    spool = Spool(home / "mail")
    if mail.imap is not None:
        fetched = mail_in.from_imap(spool, mail.imap)
    elif mail.maildir is not None:
        fetched = mail_in.from_maildir(spool, mail.maildir)
    else:
        raise Refusal(N_("the mail settings name no [imap] server and no maildir to read"))
    folder, notes = home / "packets", home / "notes"
    folder.mkdir(parents=True, exist_ok=True)
    new_notes: list[Path] = []
    for path in sorted(spool.folder("inbox").glob("*.eml")):
        try:
            found = mail_in.documents(mail_in.parse(path.read_bytes()))
        except mail_in.HostileMail:
            found = []  # no mail client sends such a message: kept, never read
        for document in found:
            if is_note(document):
                target = notes / f"{path.stem}.txt"
                write_atomic(target, document)
                new_notes.append(target)
                continue
            if _keep_opening(home, document) or _keep_two_party(home, document):
                continue
            head = public_part(document)
            if head is None:
                continue
            name = f"{head['game']}-{head['seq']:06d}-{head['to']}.txt"
            if _safe(name) and not (folder / name).exists():
                write_atomic(folder / name, document)
        path.replace(spool.folder("processed") / path.name)
    return folder, fetched, new_notes


def _keep_opening(home: Path, document: str) -> bool:
    """An invitation (a game definition) or the other side's join, kept for `seki bot
    run` under invitations/ and joins/ (unchecked here: checked when used)."""
    kinds = {f"format: {GAME_FORMAT}": "invitations", f"format: {JOIN_FORMAT}": "joins"}
    folder = next((f for tag, f in kinds.items() if tag in document[:600]), None)
    if folder is None:
        return False
    try:
        game_id = docs.peek_game(document, "mail")
    except ValueError:
        return True
    side = ""
    if folder == "joins":
        side = next((s for s in SIDES if f"side: {s}" in document[:600]), "")
        side = f"-{side}" if side else ""
    name = f"{game_id}{side}.txt"
    if _safe(name) and not (home / folder / name).exists():
        write_atomic(home / folder / name, document)
    return True


TWO_PARTY = "two-party"  # the key directory's folder of two-party records and reveals


def _keep_two_party(home: Path, document: str) -> bool:
    """A two-party game's record or reveal, kept as two-party/<game>/<n>-<side>.txt or
    reveal-<side>.txt until `seki play` takes it in (unchecked here: checked then)."""
    head = document[:2000]
    if "format: seki-2p-record/1" in head:
        n = re.search(r"^n: (\d{1,6})$", head, re.MULTILINE)
        name = f"{int(n.group(1)):04d}" if n else None
    elif "format: seki-2p-reveal/1" in head:
        name = "reveal"
    else:
        return False
    side = re.search(r"^side: (ishida|tokugawa)$", head, re.MULTILINE)
    try:
        game_id = docs.peek_game(document, "mail")
    except ValueError:
        return True
    if name is None or side is None or not _safe(game_id):
        return True
    target = home / TWO_PARTY / game_id / f"{name}-{side.group(1)}.txt"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, document)
    return True


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
        raise ValueError(_not_sent(spool, failed))
    return _("mailed {name} to {to}").format(name=path.name, to=to)


def _safe(name: str) -> bool:
    """A file name made of a game id, a number and a side only (nothing a sender could
    use to write elsewhere)."""
    return all(c.isalnum() or c in "-_." for c in name) and not name.startswith(".")


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
        raise ValueError(_not_sent(spool, failed))
    return _("mailed {name} to the referee ({to})").format(name=turn.name, to=to)


def _not_sent(spool: Spool, failed: str) -> str:
    """Why a message stayed in the outbox, in the reader's language."""
    text = _("not sent (kept in {folder}): {failed}")
    return text.format(folder=spool.folder("outbox"), failed=failed)
