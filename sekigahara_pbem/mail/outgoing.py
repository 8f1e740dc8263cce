"""Outgoing mail: each message a standard .eml file (RFC 5322, MIME) in the spool's outbox,
then delivered over SMTP and moved to sent/. A message that cannot be delivered stays in
the outbox with its last error beside it (<name>.error) and is tried again on the next run:
nothing is lost.

The body of a packet mail is the public report only. Mail crosses servers in the clear,
so what is secret (the hand, the own blocks, the options) travels only inside the attached
packet, sealed to its recipient; `seki view` opens it.
"""

from __future__ import annotations

import smtplib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP, default
from email.utils import formatdate, make_msgid
from pathlib import Path

from ..protocol.store import write_atomic
from ..refusal import N_, Refusal
from .login import Login, login
from .settings import MailSettings, Server


class Spool:
    """The referee's mail folders: inbox (fetched, not yet read), processed, outbox, sent."""

    def __init__(self, root: Path):
        self.root = root
        for name in ("inbox", "processed", "outbox", "sent"):
            (root / name).mkdir(parents=True, exist_ok=True)

    def folder(self, name: str) -> Path:
        return self.root / name

    def queued(self, name: str) -> bool:
        """Whether a message of this name was ever put in the outbox (sent or not)."""
        return any((self.root / f / f"{name}.eml").exists() for f in ("outbox", "sent"))

    def queue(self, name: str, message: EmailMessage) -> bool:
        """Put a message in the outbox once; False if it was queued before."""
        if self.queued(name):
            return False
        write_atomic(self.root / "outbox" / f"{name}.eml", message.as_bytes(policy=SMTP))
        return True


def message(
    sender: str,
    to: str,
    subject: str,
    body: str,
    attachments: Sequence[tuple[str, str]] = (),
    in_reply_to: str | None = None,
    automatic: str = "auto-generated",
) -> EmailMessage:
    """A plain-text mail with seki documents attached as text files; `in_reply_to`, a
    Message-ID already checked (mail_in.message_id), threads it as a reply."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "seki.invalid")
    msg["Auto-Submitted"] = automatic  # RFC 3834: robots must not answer it
    if in_reply_to is not None:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body, charset="utf-8")
    for filename, text in attachments:
        msg.add_attachment(
            text.encode("utf-8"), maintype="text", subtype="plain", filename=filename
        )
    return msg


@dataclass
class Delivery:
    sent: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # name -> last error


def send_outbox(
    spool: Spool, settings: MailSettings, sleep: Callable[[float], None] = time.sleep
) -> Delivery:
    """Deliver every queued message; retry transient failures; keep what fails."""
    result = Delivery()
    server = settings.smtp
    if server is None:
        raise Refusal(N_("the mail settings have no [smtp] section; cannot send"))
    queued = sorted(spool.folder("outbox").glob("*.eml"))
    if not queued:
        return result
    # once for the whole outbox: a password command may ask for a passphrase
    credentials = login(server, f"SMTP {server.host}:{server.port}")
    for path in queued:
        error = _deliver(path, server, settings, credentials, sleep)
        name = path.stem
        error_path = path.with_suffix(".error")
        if error is None:
            path.replace(spool.folder("sent") / path.name)
            error_path.unlink(missing_ok=True)
            result.sent.append(name)
        else:
            write_atomic(error_path, error + "\n")
            result.failed[name] = error
    return result


def _deliver(
    path: Path,
    server: Server,
    settings: MailSettings,
    credentials: Login | None,
    sleep: Callable[[float], None],
) -> str | None:
    """None when delivered to `server` (the settings' SMTP server), else the last error
    (after the configured attempts)."""
    msg = message_from_bytes(path.read_bytes(), policy=default)
    error = "not tried"
    for attempt in range(settings.attempts):
        if attempt:
            sleep(settings.delay_seconds * attempt)
        try:
            with _connect(server, credentials) as smtp:
                refused = smtp.send_message(msg)
            if refused:
                return f"recipients refused: {_refusals(refused)}"
            return None
        except smtplib.SMTPResponseException as exc:
            error = f"SMTP {exc.smtp_code}: {_text(exc.smtp_error)}"
            if 500 <= exc.smtp_code < 600:
                return error  # permanent: retrying will not help
        except smtplib.SMTPRecipientsRefused as exc:
            return f"recipients refused: {_refusals(exc.recipients)}"
        except (smtplib.SMTPException, OSError) as exc:  # boundary: the network, the server
            error = f"{type(exc).__name__}: {exc}"
    return error


def _refusals(refused: dict) -> str:
    return ", ".join(f"{who} ({code} {_text(why)})" for who, (code, why) in refused.items())


def _text(raw: bytes | str) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)


def _connect(server: Server, credentials: Login | None) -> smtplib.SMTP:
    """A connection, logged in with a password or, with an OAuth2 token, by AUTH XOAUTH2."""
    timeout = 30
    if server.security == "tls":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            server.host, server.port, timeout=timeout, context=server.tls_context()
        )
    else:
        smtp = smtplib.SMTP(server.host, server.port, timeout=timeout)
        if server.security == "starttls":
            smtp.starttls(context=server.tls_context())
    if credentials is not None:
        try:
            if credentials.oauth2:
                smtp.ehlo_or_helo_if_needed()
                smtp.auth("XOAUTH2", _xoauth2(credentials))
            else:
                smtp.login(credentials.user, credentials.secret)
        except smtplib.SMTPException:
            smtp.close()
            raise
    return smtp


def _xoauth2(credentials: Login) -> Callable[..., str]:
    """smtplib's AUTH answer: the XOAUTH2 initial response, then an empty line to the
    error a server sends as a 334 challenge (a JSON status), after which it says 535."""

    def answer(challenge: bytes | None = None) -> str:
        return credentials.xoauth2() if challenge is None else ""

    return answer
