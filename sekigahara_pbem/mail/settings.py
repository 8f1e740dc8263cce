"""The referee's mail settings: servers, credentials and the From address, from a TOML file
(`--mail-config`, else $SEKI_MAIL_CONFIG, else mail.toml in the key directory) with the
passwords from a command, the file, the environment or the system keyring, or an OAuth2
token from a command (login.py says in which order). Never from a game directory: a game
repository is shared with the players and, at the end, with everyone. A file that holds a
password and that others may read is used, with a warning on stderr.

    from = "referee@example.org"
    [smtp]
    host = "smtp.example.org"
    port = 587
    security = "starttls"          # starttls | tls | none (none only on 127.0.0.1)
    user = "referee@example.org"
    password_env = "SEKI_SMTP_PASSWORD"   # or: password = "...", or nothing: the keyring
    # password_command = ["pass", "show", "mail/smtp"]   # its first line of output
    # token_command = ["oauth2ms"]   # an OAuth2 access token: XOAUTH2 (Gmail, Outlook.com)
    ca_file = "/path/to/ca.pem"    # optional: trust this CA instead of the system's
    [imap]
    host = "imap.example.org"
    port = 993
    security = "tls"
    user = "referee@example.org"
    password_env = "SEKI_IMAP_PASSWORD"
    folder = "INBOX"               # the folder to read (`mailbox` is its older name)
    [retry]
    attempts = 3
    delay_seconds = 5
"""

from __future__ import annotations

import os
import shlex
import ssl
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..i18n import gettext as _
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
    password_env: str = ""  # named when no password is found (login.py)
    password_command: tuple[str, ...] = ()
    token_command: tuple[str, ...] = ()  # an OAuth2 access token: XOAUTH2

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
    _warn_if_readable(path, raw)
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
    given = [k for k in ("password", "password_command", "token_command") if k in section]
    if len(given) > 1:
        raise Refusal(N_("give one of {words}"), at=where, words=", ".join(given))
    password = section.get("password")
    if password is not None and not isinstance(password, str):
        raise Refusal(N_("expected a string"), at=f"{where}.password")
    env = section.get("password_env", f"SEKI_{name.upper()}_PASSWORD")
    if not isinstance(env, str):
        raise Refusal(N_("expected a string"), at=f"{where}.password_env")
    if password is None and env in os.environ:
        password = os.environ[env]
    user = section.get("user")
    if user is not None and not isinstance(user, str):
        raise Refusal(N_("expected a string"), at=f"{where}.user")
    if "token_command" in section and not user:
        raise Refusal(N_("OAuth2 needs the user's address"), at=f"{where}.user")
    folder = _folder(section, where)
    ca_file = section.get("ca_file")
    if ca_file is not None and not Path(ca_file).is_file():
        raise Refusal(N_("{path} is not a file"), at=f"{where}.ca_file", path=ca_file)
    return Server(
        host, port, security, user, password, ca_file, folder, env,
        _command(section, "password_command", where), _command(section, "token_command", where),
    )  # fmt: skip


def _folder(section: dict, where: str) -> str:
    """The IMAP folder to read: `folder`, or `mailbox`, its older name; INBOX by default."""
    if "folder" in section and "mailbox" in section:
        raise Refusal(N_("give folder or mailbox, not both"), at=where)
    folder = section.get("folder", section.get("mailbox", "INBOX"))
    if not isinstance(folder, str) or not folder:
        raise Refusal(N_("expected a folder name"), at=f"{where}.folder")
    return folder


def _command(section: dict, key: str, where: str) -> tuple[str, ...]:
    """A password or token command: a list of arguments, or one string split as a shell
    would split it (shlex) but never handed to a shell."""
    value = section.get(key)
    if value is None:
        return ()
    parts: list[str] | None = None
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        parts = value
    elif isinstance(value, str):
        try:
            parts = shlex.split(value)
        except ValueError:  # boundary: shlex reports an open quote only by raising
            parts = None
    if not parts:
        expected = N_("expected a command: a list of arguments or one line")
        raise Refusal(expected, at=f"{where}.{key}")
    return tuple(parts)


def _warn_if_readable(path: Path, raw: dict) -> None:
    """A password in a file others may read is a password others may have: said on stderr
    each time until the owner closes the file (POSIX permissions; Windows has none)."""
    holds = any(isinstance(raw.get(n), dict) and "password" in raw[n] for n in ("smtp", "imap"))
    if holds and os.name == "posix" and path.stat().st_mode & 0o044:
        warning = _(
            "seki: warning: {path} holds a password and others may read it; run: chmod 600 {path}"
        )
        print(warning.format(path=path), file=sys.stderr)
