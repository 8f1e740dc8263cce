"""Identities: who signs, and to whom sections are sealed.

An identity is a name plus two keys: an Ed25519 key for signatures and an X25519 key for
HPKE sealing. Two separate keys are used because one key should serve one purpose (a key
that both signs and decrypts invites cross-protocol attacks), and because `cryptography`
offers no vetted Ed25519-to-X25519 conversion; we do not write one.

A player's existing OpenSSH Ed25519 key may be adopted as the signing key. Its X25519 key
is then freshly generated, not derived: derivation would be a hand-written birational map
between curves, and the public line publishes both keys anyway.

Formats (docs/crypto.md):

- public line: ``seki1:<name>:<ed25519>:<x25519>``, each key the 32 raw public bytes in
  unpadded base64url, so it fits on one line of an email or a YAML file;
- key id: SHA-256 of the public line (ASCII), 64 lower-case hex digits, used in signature
  blocks; fingerprint: its first 32 hex digits in groups of four, for humans to compare;
- identity file: a small YAML document holding the Ed25519 key as an OpenSSH private key
  and the X25519 key as PKCS#8 PEM, plus the public line as a consistency check.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from ..refusal import N_, Code, Phrase, Refusal, quoted

if TYPE_CHECKING:
    from .ssh_signer import SshKeygenSigner

PUBLIC_PREFIX = "seki1"
IDENTITY_FORMAT = "seki-identity/1"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_B64URL = re.compile(r"[A-Za-z0-9_-]{43}")


class KeyFormatError(Refusal):
    """A public line, identity file or SSH key could not be used; the message says why."""

    code = Code.BAD_KEY


def check_name(name: str) -> str:
    """Names appear in public lines, file names and HPKE info: keep them plain."""
    if not NAME_PATTERN.fullmatch(name):
        raise KeyFormatError(
            N_(
                "bad name {name}: use 1-64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            ),
            name=quoted(name),
        )
    return name


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _unb64(text: str, what: Phrase) -> bytes:
    if not _B64URL.fullmatch(text):
        raise KeyFormatError(
            N_("{what} must be 43 base64url characters (32 bytes), got {text}"),
            what=what,
            text=quoted(text),
        )
    return base64.urlsafe_b64decode(text + "=")  # _B64URL admits only base64url


def _raw(key: Ed25519PublicKey | X25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


@dataclass(frozen=True)
class PublicKey:
    """The public half of an identity, as published in a game definition."""

    name: str
    signing: Ed25519PublicKey
    encryption: X25519PublicKey

    def line(self) -> str:
        """The one-line text form, ``seki1:<name>:<ed25519>:<x25519>``."""
        return self._line

    @cached_property
    def _line(self) -> str:
        """Kept once made: a verify compares and names the same few keys thousands of times."""
        return ":".join(
            (PUBLIC_PREFIX, self.name, _b64(_raw(self.signing)), _b64(_raw(self.encryption)))
        )

    @cached_property
    def key_id(self) -> str:
        """SHA-256 of the public line: the machine identifier used in signature blocks."""
        return hashlib.sha256(self.line().encode("ascii")).hexdigest()

    @property
    def fingerprint(self) -> str:
        """The first 128 bits of the key id, grouped for reading aloud or comparing by eye."""
        kid = self.key_id[:32]
        return " ".join(kid[i : i + 4] for i in range(0, 32, 4))

    def openssh(self) -> str:
        """The signing key as an OpenSSH public key line (to compare with ~/.ssh/*.pub)."""
        return self.signing.public_bytes(
            serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
        ).decode("ascii")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicKey) and self.line() == other.line()

    def __hash__(self) -> int:
        return hash(self.line())

    def __reduce__(self) -> tuple:
        """Pickled as its line (a second process of `seki verify` hands keys back)."""
        return parse_public_line, (self.line(),)


def parse_public_line(text: str) -> PublicKey:
    """Parse ``seki1:<name>:<ed25519>:<x25519>``; surrounding whitespace is ignored."""
    parts = text.strip().split(":")
    if len(parts) != 4:
        raise KeyFormatError(
            N_(
                "a public key line has 4 ':'-separated fields (seki1:name:ed25519:x25519), "
                "got {count}"
            ),
            count=len(parts),
        )
    prefix, name, sig_b64, enc_b64 = parts
    if prefix != PUBLIC_PREFIX:
        raise KeyFormatError(
            N_("public key line must start with {expected}, not {found}"),
            expected=quoted(PUBLIC_PREFIX),
            found=quoted(prefix),
        )
    check_name(name)
    sig_raw = _unb64(sig_b64, Phrase(N_("the Ed25519 key")))
    enc_raw = _unb64(enc_b64, Phrase(N_("the X25519 key")))
    # any 32 bytes load (a bad point is found when a signature does not verify); the two
    # raise only on another length, which _unb64 rules out
    signing = Ed25519PublicKey.from_public_bytes(sig_raw)
    encryption = X25519PublicKey.from_public_bytes(enc_raw)
    return PublicKey(name, signing, encryption)


@dataclass(frozen=True)
class Identity:
    """A private identity: name, signing key and encryption key. The signing key is
    seki's own, or one OpenSSH holds and signs with (crypto/ssh_signer.py)."""

    name: str
    signing: Ed25519PrivateKey | SshKeygenSigner
    encryption: X25519PrivateKey

    @property
    def public(self) -> PublicKey:
        return PublicKey(self.name, self.signing.public_key(), self.encryption.public_key())


def generate(name: str) -> Identity:
    """A fresh identity with new Ed25519 and X25519 keys."""
    return Identity(check_name(name), Ed25519PrivateKey.generate(), X25519PrivateKey.generate())


def load_ssh_signing_key(data: bytes, password: bytes | None = None) -> Ed25519PrivateKey:
    """Read an OpenSSH private key and insist that it is Ed25519."""
    try:
        key = serialization.load_ssh_private_key(data, password=password)
    except TypeError as exc:  # boundary: cryptography reports a password issue by TypeError
        raise KeyFormatError(N_("SSH key: {error}"), error=exc) from None
    except UnsupportedAlgorithm as exc:
        if "bcrypt" in str(exc):
            raise KeyFormatError(
                N_(
                    "passphrase-protected SSH keys need the Python package 'bcrypt' "
                    "(pip install bcrypt)"
                )
            ) from None
        raise _unreadable(exc) from None
    except ValueError as exc:  # boundary: cryptography reports a malformed key by ValueError
        raise _unreadable(exc) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFormatError(
            N_("SSH key is {kind}, not Ed25519 (create one with: ssh-keygen -t ed25519)"),
            kind=type(key).__name__.removesuffix("PrivateKey"),
        )
    return key


def _unreadable(exc: Exception) -> KeyFormatError:
    return KeyFormatError(N_("not a readable OpenSSH private key: {error}"), error=exc)


def from_ssh_key(name: str, data: bytes, password: bytes | None = None) -> Identity:
    """Adopt an OpenSSH Ed25519 key for signing; a new X25519 key is generated (see module)."""
    return Identity(
        check_name(name), load_ssh_signing_key(data, password), X25519PrivateKey.generate()
    )


def _indent(block: str) -> str:
    return "".join("  " + line + "\n" for line in block.strip().splitlines())


def _signing_text(signing) -> str:
    """The signing key's lines of an identity file: the key itself, or, for a key seki
    never copies (crypto/ssh_signer.py), its public line and where ssh-keygen finds it."""
    from .ssh_signer import SshKeygenSigner, public_line

    if isinstance(signing, SshKeygenSigner):
        where = str(signing.path) if signing.path is not None else "ssh-agent"
        return f"signing-ssh: {public_line(signing.public)}\nsigning-ssh-key: {where}\n"
    ssh = signing.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    ).decode("ascii")
    return "signing-key: |\n" + _indent(ssh)


def _signing_from(data: dict):
    from .ssh_signer import SshKeygenSigner, parse_public

    if "signing-ssh" not in data:
        if not isinstance(data.get("signing-key"), str):
            raise _missing("signing-key")
        return load_ssh_signing_key(data["signing-key"].encode("ascii", "replace"))
    where = data.get("signing-ssh-key")
    if not isinstance(data["signing-ssh"], str) or not isinstance(where, str):
        raise KeyFormatError(N_("identity file: signing-ssh and signing-ssh-key must be text"))
    public = parse_public(data["signing-ssh"], Phrase(N_("identity file: signing-ssh")))
    return SshKeygenSigner(public, None if where == "ssh-agent" else Path(where))


def identity_to_text(identity: Identity) -> str:
    """The identity file. Unencrypted: the caller writes it with mode 0600 (or sealed with
    a passphrase, crypto/keystore.py)."""
    x25519 = identity.encryption.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")
    return (
        "# Sekigahara PBEM private identity. Keep this file secret; never mail it.\n"
        f"format: {IDENTITY_FORMAT}\n"
        f"name: {identity.name}\n"
        f"public: {identity.public.line()}\n"
        f"{_signing_text(identity.signing)}"
        "encryption-key: |\n"
        f"{_indent(x25519)}"
    )


def identity_from_text(text: str) -> Identity:
    """Parse an identity file, checking that its public line matches its private keys."""
    try:
        # every field is text: the base loader makes no numbers, dates or booleans (a name
        # "1e3" stays a name; a date out of range is no ValueError)
        data = yaml.load(text, Loader=yaml.BaseLoader)  # noqa: S506 - builds only str, list, dict
    except yaml.YAMLError as exc:
        raise KeyFormatError(N_("identity file is not valid YAML: {error}"), error=exc) from None
    except RecursionError:  # boundary: PyYAML reports too deep a nesting by RecursionError
        raise KeyFormatError(
            N_("identity file is not valid YAML: {error}"), error=Phrase(N_("nested too deeply"))
        ) from None
    if not isinstance(data, dict):
        raise KeyFormatError(N_("identity file must be a YAML mapping"))
    if data.get("format") != IDENTITY_FORMAT:
        raise KeyFormatError(
            N_("identity file format must be {expected}, got {found}"),
            expected=quoted(IDENTITY_FORMAT),
            found=quoted(data.get("format")),
        )
    for field in ("name", "public", "encryption-key"):
        if not isinstance(data.get(field), str):
            raise _missing(field)
    name = check_name(data["name"])
    signing = _signing_from(data)
    pem = data["encryption-key"].encode("ascii", "replace")
    try:
        encryption = serialization.load_pem_private_key(pem, password=None)
    except UnsupportedAlgorithm as exc:
        raise _unreadable_x25519(exc) from None
    except ValueError as exc:  # boundary: cryptography reports a malformed key by ValueError
        raise _unreadable_x25519(exc) from None
    except TypeError as exc:  # boundary: cryptography reports an encrypted key by TypeError
        raise _unreadable_x25519(exc) from None
    if not isinstance(encryption, X25519PrivateKey):
        raise KeyFormatError(N_("identity file: encryption-key is not an X25519 key"))
    identity = Identity(name, signing, encryption)
    if identity.public.line() != data["public"].strip():
        raise KeyFormatError(N_("identity file: 'public' line does not match the private keys"))
    return identity


def _unreadable_x25519(exc: Exception) -> KeyFormatError:
    return KeyFormatError(N_("identity file: encryption-key is not readable: {error}"), error=exc)


def _missing(field: str) -> KeyFormatError:
    return KeyFormatError(
        N_("identity file: field {field} is missing or not text"), field=quoted(field)
    )
