"""The referee's mail settings: servers, credentials and the From address, from a TOML file
(`--mail-config`, else $SEKI_MAIL_CONFIG, else mail.toml in the key directory) with the
passwords from the environment or the file. Never from a game directory: a game repository
is shared with the players and, at the end, with everyone.

    from = "referee@example.org"
    [smtp]
    host = "smtp.example.org"
    port = 587
    security = "starttls"          # starttls | tls | none (none only on 127.0.0.1)
    user = "referee@example.org"
    password_env = "SEKI_SMTP_PASSWORD"   # or: password = "..."
    ca_file = "/path/to/ca.pem"    # optional: trust this CA instead of the system's
    [imap]
    host = "imap.example.org"
    port = 993
    security = "tls"
    user = "referee@example.org"
    password_env = "SEKI_IMAP_PASSWORD"
    mailbox = "INBOX"
    [retry]
    attempts = 3
    delay_seconds = 5
"""

from __future__ import annotations

import os
import ssl
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..protocol.game import check_address
from ..refusal import N_, Refusal

SECURITY = ("starttls", "tls", "none")
LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    security: str
    user: str | None
    password: str | None
    ca_file: str | None
    mailbox: str = "INBOX"

    def tls_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.ca_file)


@dataclass(frozen=True)
class MailSettings:
    sender: str
    smtp: Server | None
    imap: Server | None
    attempts: int = 3
    delay_seconds: float = 5.0
    maildir: Path | None = None  # a local maildir to read instead of IMAP (players)


def default_path() -> Path:
    from ..crypto.keydir import default_dir

    env = os.environ.get("SEKI_MAIL_CONFIG")
    return Path(env) if env else default_dir() / "mail.toml"


def load(path: Path | None, game_dirs: Sequence[Path] = ()) -> MailSettings:
    """Read and check the settings; every problem is one line naming the field."""
    path = path or default_path()
    resolved = path.resolve()
    for root in game_dirs:
        if resolved.is_relative_to(root.resolve()):
            raise Refusal(
                N_("mail settings must not live in a game directory ({root})"),
                at=str(path),
                root=root,
            )
    text = path.read_bytes().decode("utf-8", errors="replace")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refusal(N_("not valid TOML: {error}"), at=str(path), error=exc) from None
    sender = raw.get("from")
    if not isinstance(sender, str):
        raise Refusal(
            N_("your address (the referee's, for the robot) is missing"),
            at=f"{path}: from",
        )
    retry = raw.get("retry", {})
    attempts, delay = retry.get("attempts", 3), retry.get("delay_seconds", 5)
    if not isinstance(attempts, int) or not 1 <= attempts <= 20:
        raise Refusal(N_("expected 1 to 20"), at=f"{path}: retry.attempts")
    if not isinstance(delay, int | float) or not 0 <= delay <= 600:
        raise Refusal(N_("expected 0 to 600"), at=f"{path}: retry.delay_seconds")
    maildir = raw.get("maildir")
    if maildir is not None and not isinstance(maildir, str):
        raise Refusal(N_("expected the path of a maildir"), at=f"{path}: maildir")
    return MailSettings(
        sender=check_address(sender, f"{path}: from"),
        smtp=_server(raw, "smtp", path, 587),
        imap=_server(raw, "imap", path, 993),
        attempts=attempts,
        delay_seconds=float(delay),
        maildir=Path(maildir).expanduser() if maildir else None,
    )


def _server(raw: dict, name: str, path: Path, default_port: int) -> Server | None:
    section = raw.get(name)
    if section is None:
        return None
    where = f"{path}: {name}"
    if not isinstance(section, dict):
        raise Refusal(N_("expected a table"), at=where)
    host, port = section.get("host"), section.get("port", default_port)
    security = section.get("security", "starttls")
    if not isinstance(host, str) or not host:
        raise Refusal(N_("missing"), at=f"{where}.host")
    if not isinstance(port, int) or not 0 < port < 65536:
        raise Refusal(N_("expected a port number"), at=f"{where}.port")
    if security not in SECURITY:
        raise Refusal(
            N_("expected one of {words}"),
            at=f"{where}.security",
            words=", ".join(SECURITY),
        )
    if security == "none" and host not in LOOPBACK:
        raise Refusal(N_("'none' only on 127.0.0.1; use starttls or tls"), at=f"{where}.security")
    password = section.get("password")
    env = section.get("password_env", f"SEKI_{name.upper()}_PASSWORD")
    if password is None and env in os.environ:
        password = os.environ[env]
    user = section.get("user")
    if user is not None and password is None:
        raise Refusal(N_("a user but no password (set ${env} or password)"), at=where, env=env)
    ca_file = section.get("ca_file")
    if ca_file is not None and not Path(ca_file).is_file():
        raise Refusal(N_("{path} is not a file"), at=f"{where}.ca_file", path=ca_file)
    return Server(
        host, port, security, user, password, ca_file, str(section.get("mailbox", "INBOX"))
    )
