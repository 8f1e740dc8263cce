"""Where a person's private identities live on disk, and how they are written safely.

The directory is ``$SEKI_HOME`` if set, else ``$XDG_CONFIG_HOME/seki``, else the one
crypto/keydir.py names (``~/.config/seki`` on Linux). Each identity is
``<name>.identity`` (keys.identity_to_text, or that text locked with a passphrase as an
age file, crypto/agefile.py). Files are
created with mode 0600 in one `open(O_CREAT | O_EXCL)` call, so a key is never readable by
others even for a moment, and an existing identity is never overwritten (losing a key
would lose the ability to sign for, or read, a running game).
"""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path

from ..i18n import gettext as _
from ..refusal import N_, Code, Refusal
from . import agefile
from .keydir import default_dir as default_dir
from .keys import Identity, KeyFormatError, check_name, identity_from_text, identity_to_text

SUFFIX = ".identity"
PASSPHRASE_ENV = "SEKI_PASSPHRASE"


class KeyStoreError(Refusal):
    """A key file could not be written or read; the message names the file."""

    code = Code.BAD_KEY


def identity_path(directory: Path, name: str) -> Path:
    return directory / f"{check_name(name)}{SUFFIX}"


def write_identity(directory: Path, identity: Identity, passphrase: str | None = None) -> Path:
    """Create `<dir>/<name>.identity` with mode 0600; refuse if it exists. With a
    passphrase, the file is an age file locked with it (`age -d` opens it too)."""
    path = identity_path(directory, identity.name)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)  # an OSError names the folder
    if path.exists():
        raise KeyStoreError(N_("already exists; not overwriting an identity"), at=str(path))
    # O_EXCL still: a file made in between is an OSError naming it, never overwritten
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    text = identity_to_text(identity)
    if passphrase:
        text = agefile.lock(text.encode("ascii"), passphrase)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(text)
    os.chmod(path, 0o600)  # in case a umask or filesystem widened it
    return path


def read_identity(path: Path) -> Identity:
    """Load one identity file; errors name the file."""
    if not path.is_file():
        raise KeyStoreError(N_("no such identity"), at=str(path))
    data = path.read_bytes()
    # an identity file is ASCII: what does not decode is replaced, and refused by the parser
    text = data.decode("utf-8", "replace")
    if agefile.is_armored(text):  # a wrong passphrase: a SealError that names the file
        text = agefile.unlock(text, passphrase(path), str(path)).decode("utf-8", "replace")
    try:
        return identity_from_text(text)
    except KeyFormatError as exc:
        raise KeyStoreError("{reason}", at=str(path), reason=exc) from None


def passphrase(path: Path) -> str:
    """The passphrase of a protected identity: $SEKI_PASSPHRASE (for cron), else asked at
    the terminal."""
    given = os.environ.get(PASSPHRASE_ENV)
    if given:
        return given
    if not sys.stdin.isatty():
        raise KeyStoreError(
            N_("protected by a passphrase: run at a terminal, or set {variable}"),
            at=str(path),
            variable=PASSPHRASE_ENV,
        )
    return getpass.getpass(_("Passphrase for {path}: ").format(path=path))


def list_identities(directory: Path) -> list[Path]:
    """All identity files in the directory, sorted by name."""
    if not directory.is_dir():
        return []
    return sorted(directory.glob(f"*{SUFFIX}"))
