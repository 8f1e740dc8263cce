"""Incoming mail: collect new messages from a maildir, an mbox or an IMAP mailbox into the
spool's inbox (raw, so nothing a player sent is lost), and find the seki documents in a
message, attached or pasted into the body.

Each message is saved once: its file name is its number in the order of arrival and a
hash of its bytes, and a message already in the inbox or processed is not saved again. A
maildir's messages are then marked seen, an IMAP message gets the \\Seen flag; an mbox is
only read.
"""

from __future__ import annotations

import contextlib
import hashlib
import imaplib
import mailbox
import os
import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import parseaddr
from pathlib import Path

from ..protocol.game import ADDRESS
from ..protocol.store import write_atomic
from ..refusal import N_, Code, Refusal, UserError, quoted
from .outgoing import Spool
from .settings import Server

BEGIN = "-----BEGIN SEKI DOCUMENT-----"
END = "-----END SEKI SIGNATURE-----"
DOCUMENT = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
MAX_MESSAGE = 5_000_000  # a message larger than this is kept but not read
MAX_DOCUMENTS = 5  # per message
MAX_MULTIPARTS = 64  # multipart containers in one message; real mail has a handful
MAX_PARTS = 500  # leaf parts looked at in one message
MAX_HEADER = 998  # RFC 5322's line limit: longer header values are cut
CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_ATOMS = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,250}"
MESSAGE_ID = re.compile(rf"<{_ATOMS}@(?:{_ATOMS}|\[[!-Z^-~]{{1,250}}\])>")  # RFC 5322 3.6.4


class HostileMail(Exception):
    """A message no mail client would send: too deeply nested, or unreadable. It is set
    aside with the reason and never stops a robot's pass."""


def key(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:24]


def save(spool: Spool, raw: bytes) -> bool:
    """Keep a fetched message in the inbox, numbered in the order of arrival (the order it
    is read in); False if it was collected before."""
    digest = key(raw)
    kept = [p.name for f in ("inbox", "processed") for p in spool.folder(f).glob("*.eml")]
    if any(name.endswith(f"-{digest}.eml") for name in kept):
        return False
    number = max((int(n.split("-")[0]) for n in kept if n.split("-")[0].isdigit()), default=0)
    write_atomic(spool.folder("inbox") / f"{number + 1:08d}-{digest}.eml", raw)
    return True


def from_maildir(spool: Spool, path: Path) -> int:
    """New and unseen messages of a maildir; each is marked seen once saved."""
    if not (path / "cur").is_dir() or not (path / "new").is_dir():
        raise Refusal(N_("not a maildir (no cur/ and new/)"), at=str(path))
    count = 0
    files = [f for sub in ("new", "cur") for f in (path / sub).iterdir() if f.is_file()]
    for file in sorted(files, key=lambda f: f.name):
        base, _, info = file.name.partition(":")
        flags = info[2:] if info.startswith("2,") else ""
        if base.startswith(".") or "S" in flags:
            continue
        count += save(spool, file.read_bytes())  # raw: nothing is parsed before it is kept
        seen = "".join(sorted(set(flags) | {"S"}))
        os.replace(file, path / "cur" / f"{base}:2,{seen}")
    return count


def from_mbox(spool: Spool, path: Path) -> int:
    """Every message of an mbox not collected before (the mbox itself is left alone)."""
    if not path.is_file():
        raise Refusal(N_("no such mbox file"), at=str(path))
    box = mailbox.mbox(path, factory=None, create=False)
    try:
        return sum(save(spool, box.get_bytes(key)) for key in box.iterkeys())
    finally:
        box.close()


def from_imap(spool: Spool, server: Server) -> int:
    """Unseen messages of the IMAP mailbox; each gets \\Seen once it is saved."""
    imap = _connect(server)
    try:
        status, _ = imap.select(_quote(server.mailbox))
        if status != "OK":
            raise Refusal(N_("cannot open mailbox {name}"), at="IMAP", name=quoted(server.mailbox))
        status, data = imap.uid("SEARCH", None, "UNSEEN")
        if status != "OK":
            raise Refusal(N_("SEARCH UNSEEN failed"), at="IMAP")
        count = 0
        for uid in data[0].split():
            status, parts = imap.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((p[1] for p in parts if isinstance(p, tuple)), None)
            if status != "OK" or raw is None:
                continue  # left unseen: the next run tries again
            count += save(spool, raw)
            imap.uid("STORE", uid, "+FLAGS", "(\\Seen)")
        return count
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            imap.logout()


def _quote(mailbox_name: str) -> str:
    return '"' + mailbox_name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _connect(server: Server) -> imaplib.IMAP4:
    try:
        if server.security == "tls":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                server.host, server.port, ssl_context=server.tls_context(), timeout=30
            )
        else:
            imap = imaplib.IMAP4(server.host, server.port, timeout=30)
            if server.security == "starttls":
                imap.starttls(ssl_context=server.tls_context())
        if server.user:
            imap.login(server.user, server.password or "")
    except imaplib.IMAP4.error as exc:
        raise UserError(
            N_("the server refused: {reason}"),
            code=Code.MAIL,
            at=f"IMAP {server.host}:{server.port}",
            reason=str(exc),
        ) from None
    return imap


def parse(raw: bytes) -> EmailMessage:
    """The message, or HostileMail: the parser recurses into every nested multipart, so
    their number is bounded before it runs."""
    if raw.lower().count(b"multipart/") > MAX_MULTIPARTS:
        raise HostileMail(f"more than {MAX_MULTIPARTS} nested multipart parts")
    try:
        return message_from_bytes(raw, policy=default)
    except (RecursionError, ValueError, LookupError, UnicodeError) as exc:  # boundary: email
        raise HostileMail(f"not a readable mail message ({type(exc).__name__})") from None


def header(msg: EmailMessage, name: str) -> str:
    """A header's value as one safe line: a stranger's header may decode to CR or LF (an
    injected `Bcc:`), to control characters, or not decode at all."""
    try:
        value = str(msg.get(name) or "")
    # boundary: the email package's header parser, on a stranger's bytes
    except (ValueError, TypeError, IndexError, LookupError, UnicodeError, AttributeError):
        return ""
    return CONTROL.sub(" ", value)[:MAX_HEADER].strip()


def sender(msg: EmailMessage) -> str:
    """The address to answer: Reply-To, else From; empty if neither is a plain address."""
    address = parseaddr(header(msg, "Reply-To") or header(msg, "From"))[1]
    return address if ADDRESS.fullmatch(address) else ""


def message_id(msg: EmailMessage) -> str | None:
    """The message's Message-ID, to thread a reply to it, or None unless it is one
    well-formed msg-id: a stranger's may decode to a line break, or not parse at all, and
    is never copied into a header of ours otherwise."""
    value = header(msg, "Message-ID")
    return value if MESSAGE_ID.fullmatch(value) else None


def automatic(msg: EmailMessage) -> bool:
    """Robots' mail (RFC 3834), bounces and lists, which must never be answered."""
    auto = (header(msg, "Auto-Submitted") or "no").lower()
    precedence = header(msg, "Precedence").lower()
    who = sender(msg).lower()
    return (
        auto != "no"
        or precedence in ("bulk", "list", "junk")
        or not who
        or who.startswith(("mailer-daemon@", "postmaster@"))
    )


def documents(msg: EmailMessage) -> list[str]:
    """The seki documents in a message, attachments first, then the body; each once."""
    found: list[str] = []
    for part in _leaves(msg):
        try:
            payload = part.get_payload(decode=True) or b""
            charset = part.get_content_charset() or "utf-8"
        # boundary: the email package, on a stranger's part
        except (ValueError, LookupError, UnicodeError, TypeError, AttributeError):
            continue
        try:
            text = payload.decode(charset, errors="replace")
        except (LookupError, UnicodeError):  # boundary: a charset Python does not know, `idna`
            text = payload.decode("utf-8", errors="replace")
        # utf-7 or unicode_escape may decode to lone surrogates, which no text holds
        text = text.encode("utf-8", errors="replace").decode("utf-8")
        for match in DOCUMENT.finditer(text):
            document = match.group(0).replace("\r\n", "\n") + "\n"
            if document not in found:
                found.append(document)
    return found[:MAX_DOCUMENTS]


def _leaves(msg: EmailMessage) -> list[EmailMessage]:
    """The message's non-multipart parts, walked without recursion, at most MAX_PARTS."""
    leaves: list[EmailMessage] = []
    stack = [msg]
    while stack and len(leaves) < MAX_PARTS:
        part = stack.pop()
        if part.is_multipart():
            payload = part.get_payload()
            stack.extend(reversed(payload if isinstance(payload, list) else []))
        else:
            leaves.append(part)
    return leaves
