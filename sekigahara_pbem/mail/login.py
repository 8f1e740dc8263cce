"""How seki logs in to a mail server (IMAP and SMTP alike): a password, or an OAuth2 token
for XOAUTH2 (Gmail and Microsoft no longer take a plain password from a program).

A password is looked for in this order, and only when a connection needs it, so that a
command that only reads mail never runs the SMTP server's password helper or unlocks the
keyring for it:

1. `password_command` (a list of arguments, or one string split like a shell would,
   never run through a shell): its first line of output, as mutt, aerc and isync do;
2. `password` in the settings file (settings.py warns if others may read the file);
3. the environment variable `password_env` (default $SEKI_IMAP_PASSWORD or
   $SEKI_SMTP_PASSWORD);
4. the system keyring: service `seki:<host>`, user the server's `user`
   (`keyring set seki:imap.gmail.com alice@gmail.com`). A system with no keyring (a
   Linux without a Secret Service, where `keyring set` itself fails) is told to use
   `password_command` instead.

`token_command` instead prints a fresh OAuth2 access token (oauth2ms, mutt_oauth2.py,
gmail-oauth2-tools' oauth2.py...), and seki logs in with XOAUTH2.
"""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..refusal import N_, Code, UserError

if TYPE_CHECKING:
    from .settings import Server

KEYRING_SERVICE = "seki:{host}"


@dataclass(frozen=True)
class Login:
    """A user and what proves it is them: a password, or a bearer token (`oauth2`)."""

    user: str
    secret: str
    oauth2: bool = False

    def xoauth2(self) -> str:
        """The XOAUTH2 initial response (Google's and Microsoft's SASL mechanism), before
        base64: IMAP AUTHENTICATE and SMTP AUTH send the same string."""
        return f"user={self.user}\x01auth=Bearer {self.secret}\x01\x01"


def login(server: Server, where: str) -> Login | None:
    """How to log in to `server` (None: it asks no login); `where` names the server in a
    refusal. A password or token command that fails is the user's to fix: refused with
    the command and its exit status."""
    if not server.user:
        return None
    if server.token_command:
        return Login(server.user, _first_line(server.token_command, where), oauth2=True)
    if server.password_command:
        return Login(server.user, _first_line(server.password_command, where))
    if server.password is not None:
        return Login(server.user, server.password)
    return Login(server.user, keyring_password(server, server.user, where))


def keyring_password(server: Server, user: str, where: str) -> str:
    """The password the system keyring holds for this server and its `user` (passed on
    its own: only a server that names its user is asked for one). None held is refused
    naming every way to give one, `keyring set` among them; no keyring on this system at
    all (`keyring set` fails there too) is refused pointing at `password_command`."""
    import keyring
    from keyring.errors import NoKeyringError

    try:
        found = keyring.get_password(KEYRING_SERVICE.format(host=server.host), user)
    except NoKeyringError:  # boundary: keyring says "no backend here" only by raising
        raise UserError(
            N_(
                "no password for {user}, and this system has no keyring to keep one: give "
                "password_command (a command that prints it) in the mail settings, or set "
                "${env}"
            ),
            code=Code.MAIL,
            at=where,
            user=user,
            env=server.password_env,
        ) from None
    if found is None:
        raise UserError(
            N_(
                "no password for {user}: set ${env}, password, password_command or "
                "token_command, or put it in the keyring ({command})"
            ),
            code=Code.MAIL,
            at=where,
            user=user,
            env=server.password_env,
            command=shlex.join(["keyring", "set", KEYRING_SERVICE.format(host=server.host),
                                user]),
        )  # fmt: skip
    return found


def _first_line(argv: tuple[str, ...], where: str) -> str:
    """The first line a password or token command prints. Its standard input and error
    are the user's terminal, where gpg's or a browser helper's prompt shows."""
    done = subprocess.run(argv, stdout=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise UserError(
            N_("{command} failed (exit status {status})"),
            code=Code.MAIL,
            at=where,
            command=shlex.join(argv),
            status=done.returncode,
        )
    lines = done.stdout.decode("utf-8", errors="replace").splitlines()
    first = lines[0].strip() if lines else ""
    if not first:
        raise UserError(
            N_("{command} printed nothing"), code=Code.MAIL, at=where, command=shlex.join(argv)
        )
    return first
