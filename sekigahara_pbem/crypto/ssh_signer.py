"""Signing with the player's own OpenSSH key, which seki never copies (issue 16).

OpenSSH's `ssh-keygen -Y sign` makes the signature: from the key file, asking its
passphrase itself at the terminal, or, when the identity names a public key, through
ssh-agent. Its SSHSIG is exactly the one seki makes with a key in hand (the test suite
checks it byte for byte), so nothing else changes; seki checks each signature against the
public key before using it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..refusal import N_, Code, Phrase, Refusal
from . import sshsig

TIMEOUT = 300  # seconds: a person may be typing a passphrase


class SshSignerError(Refusal):
    code = Code.BAD_KEY


def public_line(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    return raw.decode("ascii")


def parse_public(line: str, where: str | Phrase) -> Ed25519PublicKey:
    """An OpenSSH Ed25519 public key line; `where` (a file name, or a Phrase) names it.
    A character that is not ASCII becomes '?', which no key line holds."""
    data = line.strip().encode("ascii", "replace")
    try:
        key = serialization.load_ssh_public_key(data)
    except UnsupportedAlgorithm as exc:
        raise _not_public(where, exc) from None
    except ValueError as exc:  # boundary: cryptography reports a malformed key by ValueError
        raise _not_public(where, exc) from None
    if not isinstance(key, Ed25519PublicKey):
        raise SshSignerError(
            N_("{where}: not Ed25519 (create one with: ssh-keygen -t ed25519)"), where=where
        )
    return key


def _not_public(where: str | Phrase, exc: Exception) -> SshSignerError:
    return SshSignerError(N_("{where}: not an OpenSSH public key: {error}"), where=where, error=exc)


@dataclass(frozen=True)
class SshKeygenSigner:
    """An Ed25519 key that `ssh-keygen -Y sign` signs with: `path` is the private key file,
    or None when the key is held by ssh-agent."""

    public: Ed25519PublicKey
    path: Path | None = None

    def public_key(self) -> Ed25519PublicKey:
        return self.public

    def sshsig(self, namespace: str, message: bytes) -> str:
        """The armoured SSHSIG of `message`, made by ssh-keygen and checked here."""
        program = shutil.which("ssh-keygen")
        if program is None:
            raise SshSignerError(
                N_("this identity signs with OpenSSH's ssh-keygen, which is not installed")
            )
        with tempfile.TemporaryDirectory() as folder:
            key = self.path
            if key is None:  # ssh-keygen finds the private half in ssh-agent
                key = Path(folder) / "key.pub"
                key.write_text(public_line(self.public) + "\n", encoding="ascii")
            command = [program, "-Y", "sign", "-n", namespace, "-f", str(key)]
            if self.path is None:
                command.append("-U")
            try:
                done = subprocess.run(command, input=message, capture_output=True,
                                      timeout=TIMEOUT, check=False)  # fmt: skip
            except subprocess.TimeoutExpired as exc:
                raise _failed(exc) from None
            except OSError as exc:  # boundary: subprocess reports a failed start by OSError
                raise _failed(exc) from None
        armoured = done.stdout.decode("ascii", "replace")
        if done.returncode != 0 or sshsig.BEGIN not in armoured:
            why = done.stderr.decode("utf-8", "replace").strip().splitlines()
            where = "ssh-agent" if self.path is None else str(self.path)
            raise SshSignerError(
                N_("ssh-keygen could not sign with {where}: {why}"),
                where=where,
                why=why[-1] if why else Phrase(N_("no signature")),
            )
        try:
            sshsig.verify(self.public, namespace, message, armoured)
        except sshsig.SshsigError as exc:
            raise SshSignerError(
                N_("ssh-keygen signed with another key: {reason}"), reason=exc
            ) from None
        return armoured


def _failed(exc: Exception) -> SshSignerError:
    return SshSignerError(N_("ssh-keygen -Y sign failed: {error}"), error=exc)
