"""Incoming mail: collect new messages from a maildir, an mbox or an IMAP mailbox into the
spool's inbox (raw, so nothing a player sent is lost), and find the seki documents in a
message, attached or pasted into the body.

Each message is saved once: its file name is its number in the order of arrival and a
hash of its bytes, and a message already in the inbox or processed is not saved again. The
robot's mailbox is its own: a maildir's messages are then marked seen, a message of its
IMAP folder gets the \\Seen flag; an mbox is only read. A player's IMAP folder or maildir is
the player's own mail (`seki_only`): only seki's messages are read there, only those that
hold a document are kept, and no message is flagged, moved or renamed.
"""

from __future__ import annotations

import contextlib
import hashlib
import imaplib
import json
import mailbox
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import parseaddr
from html.parser import HTMLParser
from pathlib import Path
from typing import cast

from ..crypto import signing, sshsig
from ..crypto.canonical import split_lines
from ..crypto.keys import PublicKey
from ..protocol.game import ADDRESS
from ..protocol.store import write_atomic
from ..refusal import N_, Code, Refusal, SekiError, UserError, quoted
from .login import Login, login
from .outgoing import Spool
from .settings import Server
from .settings import load as load_settings

BEGIN = "-----BEGIN SEKI DOCUMENT-----"
END = "-----END SEKI SIGNATURE-----"
MAX_MESSAGE = 5_000_000  # a message larger than this is kept but not read
MAX_DOCUMENTS = 5  # per message
MAX_BLOCKS = 20  # document blocks read in one message (a plain and an HTML copy of each...)
MAX_BLOCK = 2_000_000  # characters of one block: a document is at most docs.MAX_BYTES
MAX_READINGS = 48  # readings of one block tried against its signature
MAX_UNWRAP = 100_000  # a block larger than this (no turn file is) is not unwrapped
WIDTHS = (64, 66, 68, 70, 72, 74, 76, 78)  # the widths mail clients wrap plain text at
DOUBTS = 5  # places in doubt at one width beyond which only "all of them" is tried
LONGEST = 80  # seki writes no line longer than 76; a little room for a changed space
MAX_MULTIPARTS = 64  # multipart containers in one message; real mail has a handful
MAX_PARTS = 500  # leaf parts looked at in one message
MAX_HEAD = 200_000  # bytes of a too-large message's header read, to answer it
MAX_HEADER = 998  # RFC 5322's line limit: longer header values are cut
CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_ATOMS = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,250}"
MESSAGE_ID = re.compile(rf"<{_ATOMS}@(?:{_ATOMS}|\[[!-Z^-~]{{1,250}}\])>")  # RFC 5322 3.6.4
SEKI_TAG = "[seki "  # in the subject of every mail seki sends, before its game: `[seki g1]`
# What seki's mail carries, for an IMAP SEARCH in a person's folder: the `[seki GAME]`
# subject tag of every mail seki sends, or a document pasted or attached (servers that
# decode attachments find it there); never larger than a message seki reads.
SEKI_MAIL = ("SMALLER", str(MAX_MESSAGE), "OR", "SUBJECT", f'"{SEKI_TAG}"', "BODY", f'"{BEGIN}"')
UIDS = "imap-uids.json"  # in the spool: per folder, the last UID looked at (seki_only)
LOOKED = "maildir-looked.json"  # in the spool: per maildir, the messages looked at (seki_only)


class HostileMail(SekiError):
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


def from_maildir(spool: Spool, path: Path, *, seki_only: bool = False) -> int:
    """New and unseen messages of a maildir; each is marked seen once saved. A person's
    maildir is theirs (`seki_only`): see `_take_seki_files`."""
    if not (path / "cur").is_dir() or not (path / "new").is_dir():
        raise Refusal(N_("not a maildir (no cur/ and new/)"), at=str(path))
    count = 0
    files = [f for sub in ("new", "cur") for f in (path / sub).iterdir() if f.is_file()]
    if seki_only:
        return _take_seki_files(spool, path, files)
    for file in sorted(files, key=lambda f: f.name):
        base, _, info = file.name.partition(":")
        flags = info[2:] if info.startswith("2,") else ""
        if base.startswith(".") or "S" in flags:
            continue
        count += save(spool, file.read_bytes())  # raw: nothing is parsed before it is kept
        seen = "".join(sorted(set(flags) | {"S"}))
        os.replace(file, path / "cur" / f"{base}:2,{seen}")
    return count


def _take_seki_files(spool: Spool, path: Path, files: list[Path]) -> int:
    """The messages of a person's maildir with seki's marks, as `_take_seki_mail` takes
    them from an IMAP folder: none is renamed, so no flag changes and the mail client
    shows the mail as it was, and only those that hold a document are kept. What was
    looked at is remembered in the spool, by each message's unique name (what comes
    before the `:2,` of its flags, which a mail client keeps when it moves or flags it),
    for the messages still there."""
    record = spool.root / LOOKED
    marks = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else {}
    folder = str(path.resolve())
    present = {f.name.partition(":")[0]: f for f in files if not f.name.startswith(".")}
    looked = set(marks.get(folder, [])) & set(present)
    count = 0
    try:
        for name in sorted(set(present) - looked):
            try:
                raw = present[name].read_bytes()
            except FileNotFoundError:  # the mail client moved it meanwhile: the next run
                continue
            if _marked(raw) and _holds_documents(raw):
                count += save(spool, raw)
            looked.add(name)
    finally:
        marks[folder] = sorted(looked)
        write_atomic(record, json.dumps(marks, indent=1, sort_keys=True) + "\n")
    return count


def _marked(raw: bytes) -> bool:
    """Whether a message has seki's marks, those an IMAP search looks for (SEKI_MAIL):
    the subject tag of every mail seki sends, or a document's first line in its text."""
    if len(raw) > MAX_MESSAGE:
        return False
    if BEGIN.encode("ascii") in raw:
        return True
    try:
        subject = header(parse_head(raw), "Subject")
    except HostileMail:
        return False
    return SEKI_TAG in subject.lower()


def from_mbox(spool: Spool, path: Path) -> int:
    """Every message of an mbox not collected before (the mbox itself is left alone)."""
    if not path.is_file():
        raise Refusal(N_("no such mbox file"), at=str(path))
    box = mailbox.mbox(path, factory=None, create=False)
    try:
        return sum(save(spool, box.get_bytes(key)) for key in box.iterkeys())
    finally:
        box.close()


def from_imap(spool: Spool, server: Server, *, seki_only: bool = False) -> int:
    """Collect from an IMAP folder. The robot's folder is its own: every unseen message
    is kept raw and gets \\Seen once saved. A person's folder is theirs (`seki_only`): it is
    opened read-only (EXAMINE) and read with BODY.PEEK, so no flag of any message changes
    and their mail client shows their mail as it was; only messages with seki's marks are
    fetched, and only those that hold a seki document are kept."""
    imap = _connect(server)
    try:
        status, _ = imap.select(_quote(server.mailbox), readonly=seki_only)
        if status != "OK":
            raise Refusal(N_("cannot open mailbox {name}"), at="IMAP", name=quoted(server.mailbox))
        if seki_only:
            return _take_seki_mail(spool, server, imap)
        count = 0
        for uid in _search(imap, "UNSEEN"):
            raw = _fetch(imap, uid)
            if raw is None:
                continue  # left unseen: the next run tries again
            count += save(spool, raw)
            imap.uid("STORE", str(uid), "+FLAGS", "(\\Seen)")
        return count
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            imap.logout()


def _take_seki_mail(spool: Spool, server: Server, imap: imaplib.IMAP4) -> int:
    """The messages with seki's marks that arrived since the last run. A person's flags are
    not seki's to set, so what was looked at is remembered in the spool instead: the
    highest UID looked at in this folder, while the folder's UIDVALIDITY stays the same
    (a new UIDVALIDITY numbers every message anew: all are looked at again, and `save`
    keeps none twice). A message with the marks but no document (a person's mail that
    mentions seki) is read in memory and dropped."""
    path = spool.root / UIDS
    marks = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    folder = f"{server.user or ''}@{server.host}:{server.port}/{server.mailbox}"
    validity = _uidvalidity(imap)
    mark = marks.get(folder, {})
    last = mark.get("last", 0) if mark.get("validity") == validity else 0
    count = 0
    try:
        for uid in _search(imap, "UID", f"{last + 1}:*", *SEKI_MAIL):
            if uid <= last:
                continue  # `n:*` always names the newest message, even below n
            raw = _fetch(imap, uid)
            if raw is None:
                break  # this one and those after it: the next run tries again
            if _holds_documents(raw):
                count += save(spool, raw)
            last = uid
    finally:
        marks[folder] = {"validity": validity, "last": last}
        write_atomic(path, json.dumps(marks, indent=1, sort_keys=True) + "\n")
    return count


def _search(imap: imaplib.IMAP4, *criteria: str) -> list[int]:
    """The UIDs an IMAP SEARCH finds, in the order of arrival."""
    status, data = imap.uid("SEARCH", *criteria)
    if status != "OK":
        raise Refusal(N_("SEARCH {criteria} failed"), at="IMAP", criteria=" ".join(criteria))
    return sorted(int(uid) for uid in (data[0] or b"").split())


def _fetch(imap: imaplib.IMAP4, uid: int) -> bytes | None:
    """One whole message, read with BODY.PEEK (which sets no flag); None if the server
    did not give it."""
    status, parts = imap.uid("FETCH", str(uid), "(BODY.PEEK[])")
    raw = next((p[1] for p in parts if isinstance(p, tuple)), None)
    return raw if status == "OK" else None


def _uidvalidity(imap: imaplib.IMAP4) -> str:
    """The selected folder's UIDVALIDITY, which SELECT and EXAMINE report."""
    _, data = imap.response("UIDVALIDITY")
    value = data[-1] if data and data[-1] else b""
    return value.decode("ascii", errors="replace")


def _holds_documents(raw: bytes) -> bool:
    """Whether a message carries a seki document (a message no mail client would send
    carries none worth keeping)."""
    if len(raw) > MAX_MESSAGE:
        return False
    try:
        return bool(documents(parse(raw)))
    except HostileMail:
        return False


def _quote(mailbox_name: str) -> str:
    return '"' + mailbox_name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _connect(server: Server) -> imaplib.IMAP4:
    """A logged-in connection: with a password, or with an OAuth2 token by XOAUTH2. The
    password or token is found first (login.py), so a refused command opens no socket."""
    where = f"IMAP {server.host}:{server.port}"
    credentials = login(server, where)
    try:
        if server.security == "tls":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                server.host, server.port, ssl_context=server.tls_context(), timeout=30
            )
        else:
            imap = imaplib.IMAP4(server.host, server.port, timeout=30)
            if server.security == "starttls":
                imap.starttls(ssl_context=server.tls_context())
        if credentials is not None and credentials.oauth2:
            imap.authenticate("XOAUTH2", _xoauth2(credentials))
        elif credentials is not None:
            imap.login(credentials.user, credentials.secret)
    except imaplib.IMAP4.error as exc:
        raise UserError(
            N_("the server refused: {reason}"),
            code=Code.MAIL,
            at=where,
            reason=str(exc),
        ) from None
    return imap


def _xoauth2(credentials: Login) -> Callable[[bytes], bytes]:
    """imaplib's AUTHENTICATE answer: the XOAUTH2 initial response, then an empty line to
    the error a server sends as a challenge (a JSON status), after which it says NO."""
    sent: list[bool] = []

    def answer(_challenge: bytes) -> bytes:
        if sent:
            return b""
        sent.append(True)
        return credentials.xoauth2().encode("utf-8")

    return answer


def parse(raw: bytes) -> EmailMessage:
    """The message, or HostileMail: the parser recurses into every nested multipart, so
    their number is bounded before it runs."""
    if raw.lower().count(b"multipart/") > MAX_MULTIPARTS:
        raise HostileMail(f"more than {MAX_MULTIPARTS} nested multipart parts")
    try:
        return message_from_bytes(raw, policy=default)
    except (RecursionError, ValueError, LookupError, UnicodeError) as exc:  # boundary: email
        raise HostileMail(f"not a readable mail message ({type(exc).__name__})") from None


def parse_head(raw: bytes) -> EmailMessage:
    """The header of a message alone (a message too large to be read is still answered
    from its From, Subject and Message-ID): what comes before its first blank line, at
    most MAX_HEAD bytes."""
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=-1)
    head = raw[: end if 0 <= end < MAX_HEAD else MAX_HEAD]
    try:
        # (ignore: with policy `default` the parser makes an EmailMessage; typeshed says Message)
        return BytesHeaderParser(policy=default).parsebytes(head)  # type: ignore[return-value]
    except (RecursionError, ValueError, LookupError, UnicodeError) as exc:  # boundary: email
        raise HostileMail(f"not a readable mail header ({type(exc).__name__})") from None


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


@dataclass(frozen=True)
class Found:
    """One signed document found in a mail, as the readings a mail client's changes leave
    possible: first the text as it came (un-quoted), then the same text with the client's
    whitespace, non-breaking spaces, indentation or wrapping undone. Which reading is the
    document is for its signature to say (`pick`): a reading is only ever a guess, and
    none is accepted that the signature does not cover. `origin`: where the sender put it,
    the attachment's file name as the mail names it (one safe line), or None for the
    message's body."""

    readings: tuple[str, ...]
    origin: str | None = None


def documents(msg: EmailMessage) -> list[str]:
    """The seki documents in a message as they came (un-quoted), in the order of its
    parts; each once. `found` gives every reading of each, for `pick`."""
    return list(dict.fromkeys(f.readings[0] for f in found(msg)))[:MAX_DOCUMENTS]


def found(msg: EmailMessage) -> list[Found]:
    """Every signed document of a message, attached or pasted, in a plain or an HTML
    part, format=flowed or not, quoted with "> " or not; a block found twice (a plain and
    an HTML part of one mail, a document pasted twice) once."""
    blocks: dict[tuple[str, ...], str | None] = {}
    for part in _leaves(msg):
        for view in _views(part):
            for block in _blocks(view):
                blocks.setdefault(tuple(block), _filename(part))
                if len(blocks) >= MAX_BLOCKS:
                    return [Found(_readings(list(b)), o) for b, o in blocks.items()]
    return [Found(_readings(list(b)), o) for b, o in blocks.items()]


MAX_FILENAME = 100  # characters of an attachment's name said back to its sender


def _filename(part: EmailMessage) -> str | None:
    """The name a part is attached under, as one safe line; None for a part of the
    message's body (no name, or one that does not decode)."""
    try:
        name = part.get_filename()
    # boundary: the email package's parameter parser, on a stranger's header
    except (ValueError, TypeError, IndexError, LookupError, UnicodeError, AttributeError):
        return None
    name = CONTROL.sub(" ", str(name or "")).strip()[:MAX_FILENAME]
    return name or None


def pick(document: Found, trusted: list[PublicKey]) -> tuple[str, PublicKey | None]:
    """The reading of a document whose signature one of the trusted keys checks, with
    that key; else the text as it came and None, for the referee to refuse with its true
    reason. Ed25519 signatures are deterministic and unforgeable, so two readings that
    both verify hold the one body the signer signed."""
    for reading in document.readings:
        try:
            _, block = signing.split(reading)
        except signing.SignatureError:
            continue
        for key in trusted:
            if key.key_id != block.key_id:
                continue
            try:
                signing.verify(reading, [key])
            except signing.SignatureError:
                continue
            return reading, key
    return document.readings[0], None


def signature_of(text: str) -> str:
    """What names a found document whatever a client did to it: its signature's lines
    (an armoured SSHSIG's base64 or version 1's `sig:` lines have no spaces, so no client
    wraps them), or the text itself if it has none. Two copies of one document in one
    mail (a plain and an HTML part, a flowed part read two ways) are one document."""
    lines = split_lines(text)
    armour = lines[lines.index(sshsig.BEGIN) :] if sshsig.BEGIN in lines else []
    armour = armour[: armour.index(sshsig.END) + 1] if sshsig.END in armour else []
    sig = armour or [line for line in lines if line.startswith("sig: ")]
    return "\n".join(sig) if sig else text


def _text(part: EmailMessage) -> str | None:
    """A leaf part's text in its charset (UTF-8 where it names none or one Python does
    not know), or None where the email package cannot decode it."""
    try:
        # a cast: decoded, a leaf's payload is bytes (a multipart's is None)
        payload = cast(bytes, part.get_payload(decode=True) or b"")
        charset = part.get_content_charset() or "utf-8"
    # boundary: the email package, on a stranger's part
    except (ValueError, LookupError, UnicodeError, TypeError, AttributeError):
        return None
    try:
        text = payload.decode(charset, errors="replace")
    except (LookupError, UnicodeError):  # boundary: a charset Python does not know, `idna`
        text = payload.decode("utf-8", errors="replace")
    # utf-7 or unicode_escape may decode to lone surrogates, which no text holds
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _views(part: EmailMessage) -> list[str]:
    """The texts a part may be read as: an HTML part as the text it shows; a
    format=flowed part (RFC 3676: Thunderbird's and Apple Mail's default) un-flowed, and
    as it came, in case the client's flowing was not what it declared."""
    text = _text(part)
    if text is None or "BEGIN SEKI DOCUMENT" not in text:
        return []
    if part.get_content_type() == "text/html":
        return [html_text(text), text]
    try:
        flowed = str(part.get_param("format") or "").lower() == "flowed"
        delsp = str(part.get_param("delsp") or "").lower() == "yes"
    # boundary: the email package's parameter parser, on a stranger's header
    except (ValueError, TypeError, IndexError, LookupError, UnicodeError, AttributeError):
        flowed = delsp = False
    return [unflow(text, delsp), text] if flowed else [text]


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676's format=flowed undone: space-stuffing removed, each line that ends in a
    space (a soft break) joined to the next of the same quote depth (with delsp=yes, the
    space removed too). Quoted lines come out as `>`s and one space, which the document
    reader un-quotes."""
    out: list[str] = []
    depth, line, open_ = 0, "", False
    for raw in split_lines(text):
        quotes = len(raw) - len(raw.lstrip(">"))
        content = raw[quotes:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing (4.4), or the space after the quotes
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        if open_ and quotes == depth:
            line += content
        else:
            if open_:
                out.append(_quoted(depth, line))
            depth, line = quotes, content
        open_ = soft
        if not soft:
            out.append(_quoted(depth, line))
    if open_:
        out.append(_quoted(depth, line))
    return "\n".join(out) + "\n"


def _quoted(depth: int, line: str) -> str:
    return (">" * depth + " " + line) if depth else line


class _HtmlText(HTMLParser):
    """The text an HTML mail shows, line by line as a reader sees it: a line per <br>
    and per block (<div>, <p>: what Gmail and Outlook write for each line pasted), runs of
    white space one space as a browser shows them (but in <pre>), &nbsp; kept as U+00A0,
    no script or style."""

    BLOCKS = frozenset(
        [
            "address",
            "article",
            "blockquote",
            "center",
            "dd",
            "div",
            "dl",
            "dt",
            "footer",
            "form",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "header",
            "hr",
            "li",
            "ol",
            "p",
            "pre",
            "section",
            "table",
            "tbody",
            "td",
            "th",
            "thead",
            "tr",
            "ul",
        ]
    )
    HIDDEN = frozenset(("head", "script", "style", "title", "xml"))

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.pre = 0
        self.hidden = 0

    def _at_line_start(self) -> bool:
        return not self.out or self.out[-1].endswith("\n")

    def _break(self) -> None:
        if not self._at_line_start():
            self.out.append("\n")

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag in self.BLOCKS:
            self._break()
            self.pre += tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            self._break()
            self.pre = max(0, self.pre - (tag == "pre"))

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if not self.pre:
            data = _HTML_SPACE.sub(" ", data)
            if self._at_line_start():
                data = data.lstrip(" ")
        if data:
            self.out.append(data)


_HTML_SPACE = re.compile(r"[ \t\r\n\f]+")


def html_text(html: str) -> str:
    """The text an HTML part shows (`_HtmlText`)."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


# a byte-order mark may open the line: a file saved by Notepad, attached or pasted
_START = re.compile(r"\ufeff?((?:> ?)*)[ \t\u00a0\ufeff]*" + re.escape(BEGIN) + r"[ \t\u00a0]*")
_MARKERS = frozenset((BEGIN, signing.BEGIN_SIGNATURE, END, sshsig.BEGIN, sshsig.END))
_ARMOUR = frozenset((sshsig.BEGIN, "-----BEGIN AGE ENCRYPTED FILE-----"))
_ARMOUR_END = frozenset((sshsig.END, "-----END AGE ENCRYPTED FILE-----"))
_SPACES = " \t\u00a0"


def _blocks(text: str) -> list[list[str]]:
    """The documents of a text, each as its lines from BEGIN DOCUMENT to END SIGNATURE
    with its reply-quote prefix (`> `, `>> `) taken off and its marker lines bare."""
    lines = split_lines(text)
    blocks: list[list[str]] = []
    i = 0
    while i < len(lines) and len(blocks) < MAX_BLOCKS:
        start = _START.fullmatch(lines[i])
        i += 1
        if start is None:
            continue
        prefix = start.group(1)
        bare = prefix.rstrip(" ")
        block, size = [BEGIN], 0
        while i < len(lines) and size < MAX_BLOCK:
            line = lines[i]
            i += 1
            if prefix and line.startswith(prefix):
                line = line[len(prefix) :]
            elif prefix and line.rstrip(_SPACES) == bare:
                line = ""
            if line.strip(_SPACES) in _MARKERS:
                line = line.strip(_SPACES)
            if line == BEGIN:  # a document cut short, then another: start again
                i -= 1
                break
            block.append(line.rstrip(_SPACES))
            size += len(line) + 1
            if line == END:
                blocks.append(block)
                break
    return blocks


def _readings(block: list[str]) -> tuple[str, ...]:
    """The block as it came, then with what clients do to a pasted text undone: U+00A0
    for spaces (HTML mail), an indentation added to every line, lines wrapped at a
    client's width (`_unwrapped`), an armoured section's lines broken at their
    indentation (`_rejoined`)."""
    bases = [_rejoined(block)]
    if any("\u00a0" in line for line in block):
        bases.append([line.replace("\u00a0", " ") for line in block])
    for lines in list(bases):
        indent = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
        if indent:
            bases.append([x[indent:] for x in lines])
    readings = ["\n".join(b) + "\n" for b in [block, *bases]]
    if sum(map(len, block)) <= MAX_UNWRAP:
        for lines in bases:
            readings += ["\n".join(b) + "\n" for b in _unwrapped(lines)]
    return tuple(dict.fromkeys(readings))[:MAX_READINGS]


def _unwrapped(lines: list[str]) -> list[list[str]]:
    """The lines with a client's wrapping undone, for each width clients wrap at. A
    client breaks a line longer than its width at the last space that fits and drops
    that space, so a line that ends a piece and the next word would not have fitted;
    seki writes no line longer than LONGEST, and nothing inside an armoured signature
    or sealed section is ever broken (no spaces). Where a width leaves a few places in
    doubt, each choice of them is a reading: the signature picks."""
    out: list[list[str]] = []
    inside = [False] * len(lines)
    armour = False
    for i, line in enumerate(lines):
        armour = (armour or line.strip() in _ARMOUR) and line.strip() not in _ARMOUR_END
        inside[i] = armour or line.strip() in _MARKERS | _ARMOUR_END
    rounds: list[list[list[int]]] = []  # per width, its choices, "all of them" first
    for width in WIDTHS:
        places = []
        for i in range(len(lines) - 1):
            here, after = lines[i], lines[i + 1]
            if inside[i] or inside[i + 1] or not here or not after or after[0] in _SPACES:
                continue
            word = after.split(" ", 1)[0]
            if len(here) <= width < len(here) + 1 + len(word):
                places.append(i)
        if places:
            rounds.append([places] if len(places) > DOUBTS else _subsets(places))
    for turn in range(max(map(len, rounds), default=0)):  # each width's best guess first
        for choices in rounds:
            joined = _join(lines, set(choices[turn])) if turn < len(choices) else None
            if joined is not None and joined not in out:
                out.append(joined)
    return out


def _rejoined(lines: list[str]) -> list[str]:
    """The lines of each indented armoured section (a sealed turn's age section, two
    spaces in) as they were before a client wrapped them: 66 characters long, they are
    broken at a client's 64 or 65 columns at the last space that fits, the one in their
    indentation, which leaves an empty line and the line unindented. No armour holds an
    empty line, so each such pair is one line broken; nothing else is changed."""
    out: list[str] = []
    indent = 0
    i = 0
    while i < len(lines):
        line, stripped = lines[i], lines[i].strip(_SPACES)
        if stripped in _ARMOUR:
            indent = len(line) - len(line.lstrip(" "))
        elif stripped in _ARMOUR_END:
            indent = 0
        elif indent and not line and _broken(lines[i + 1 : i + 2], indent):
            out.append(" " * indent + lines[i + 1].lstrip(" "))
            i += 2
            continue
        out.append(line)
        i += 1
    return out


def _broken(after: list[str], indent: int) -> bool:
    """Whether the line after an empty one inside armour is the rest of a line broken
    in its indentation: text, without the whole indentation."""
    return bool(after and after[0].strip() and not after[0].startswith(" " * indent))


def _subsets(places: list[int]) -> list[list[int]]:
    """Every choice of the places, all of them first."""
    return [
        [p for bit, p in enumerate(places) if mask >> bit & 1]
        for mask in range((1 << len(places)) - 1, 0, -1)
    ]


def _join(lines: list[str], places: set[int]) -> list[str] | None:
    """The lines with each line after a place joined to it by a space; None where a
    joined line would be longer than seki writes."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if i - 1 in places:
            out[-1] += " " + line
            if len(out[-1]) > LONGEST:
                return None
        else:
            out.append(line)
    return out


def _leaves(msg: EmailMessage) -> list[EmailMessage]:
    """The message's non-multipart parts, walked without recursion, at most MAX_PARTS."""
    leaves: list[EmailMessage] = []
    stack = [msg]
    while stack and len(leaves) < MAX_PARTS:
        part = stack.pop()
        if part.is_multipart():
            payload = part.get_payload()
            # a cast: a multipart's payload lists its parts, each made by the policy that
            # made `msg`, so an EmailMessage like it
            parts = cast(list[EmailMessage], payload) if isinstance(payload, list) else []
            stack.extend(reversed(parts))
        else:
            leaves.append(part)
    return leaves


def collector(
    maildir: Path | None,
    mbox: Path | None,
    imap: bool,
    config: Path | None,
    dirs: Sequence[Path] = (),
) -> Callable[[Spool], int] | None:
    """The collection `--maildir`, `--mbox` or `--imap` asks for (at most one source), as
    a callable(spool) (`seki mail fetch`, `seki referee run`); None for no source."""
    sources = [s for s in (maildir, mbox, imap or None) if s is not None]
    if len(sources) > 1:
        raise Refusal(N_("give one source: --maildir, --mbox or --imap"))
    if maildir is not None:
        return lambda spool: from_maildir(spool, maildir)
    if mbox is not None:
        return lambda spool: from_mbox(spool, mbox)
    if imap:
        server = load_settings(config, list(dirs)).imap
        if server is None:
            raise Refusal(N_("the mail settings have no [imap] section"))
        return lambda spool: from_imap(spool, server)
    return None
