"""Sections a player opens with `age` (issue 16): encrypted with the age format
(age-encryption.org/v1, through pyrage, a binding of the reference Rust implementation) to
two recipients of the player's one key, so that either of the player's own tools opens it:

- its seki X25519 key, as an age X25519 recipient; `seki keys age` prints the matching
  `AGE-SECRET-KEY-1…` identity for `age -d -i`;
- its Ed25519 signing key as an `ssh-ed25519` recipient, which is the player's own SSH key
  when its identity was made from one (`seki keys import-ssh`): `age -d -i ~/.ssh/id_ed25519`.

The referee's sealed turn files use the same format, to the game's state key
(`seal_to_key`), so one envelope format serves every sealed part a person may open.

age knows nothing of games: the caller puts where the section belongs (game, sequence,
recipient, purpose) inside the plaintext and checks it after decryption, so a section cut
into another document is refused. The ASCII armor is age's own (RFC 7468, strict: 64
columns), which `age -d` reads as it is.
"""

from __future__ import annotations

import base64

import pyrage
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from ..refusal import N_
from . import bech32, sshsig
from .b64 import is_base64
from .keys import Identity, PublicKey
from .sealing import SealError

BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
END = "-----END AGE ENCRYPTED FILE-----"
COLUMNS = 64


def age_recipient(public: PublicKey) -> str:
    """The player's X25519 key as an age recipient (`age1…`)."""
    return bech32.encode("age", public.encryption.public_bytes_raw())


def age_identity(identity: Identity) -> str:
    """The player's X25519 key as an age identity (`AGE-SECRET-KEY-1…`): secret."""
    return bech32.encode("age-secret-key-", identity.encryption.private_bytes_raw()).upper()


def ssh_recipient(public: PublicKey) -> str:
    """The player's Ed25519 key as an OpenSSH public key line."""
    return "ssh-ed25519 " + base64.b64encode(sshsig.public_blob(public.signing)).decode()


def is_armored(text: str) -> bool:
    return text.lstrip().startswith(BEGIN)


def seal(plaintext: bytes, public: PublicKey) -> str:
    """The plaintext encrypted to both of the player's recipients, armored."""
    recipients = [
        pyrage.x25519.Recipient.from_str(age_recipient(public)),
        pyrage.ssh.Recipient.from_str(ssh_recipient(public)),
    ]
    return armor(pyrage.encrypt(plaintext, recipients))


def seal_to_key(plaintext: bytes, key: X25519PublicKey) -> str:
    """The plaintext encrypted to one X25519 key (a game's state key), armored."""
    recipient = pyrage.x25519.Recipient.from_str(bech32.encode("age", key.public_bytes_raw()))
    return armor(pyrage.encrypt(plaintext, [recipient]))


def armor(data: bytes) -> str:
    """An age file in age's ASCII armor."""
    text = base64.b64encode(data).decode("ascii")
    lines = [text[i : i + COLUMNS] for i in range(0, len(text), COLUMNS)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def dearmor(text: str, where: str) -> bytes:
    lines = [line.strip() for line in text.strip().splitlines()]
    if len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise SealError(N_("not an age-armored file"), at=where)
    text = "".join(lines[1:-1])
    if not is_base64(text):
        raise SealError(N_("the age armor is not base64"), at=where)
    return base64.b64decode(text, validate=True)


def open_armored(text: str, identity: Identity, where: str) -> bytes:
    """Decrypt an armored age file with the player's X25519 key (SealError if it is not
    one, or not for this key)."""
    return open_with_key(text, identity.encryption, where)


def open_with_key(text: str, key: X25519PrivateKey, where: str) -> bytes:
    data = dearmor(text, where)
    secret = bech32.encode("age-secret-key-", key.private_bytes_raw()).upper()
    identity = pyrage.x25519.Identity.from_str(secret)  # our own key: an error is a bug
    try:
        return pyrage.decrypt(data, [identity])
    except pyrage.DecryptError as exc:
        raise SealError(
            N_("the age section does not open with your key ({error})"),
            at=where,
            error=exc,
        ) from None


def lock(plaintext: bytes, passphrase: str) -> str:
    """Encrypted with a passphrase (age's scrypt recipient), armored: `age -d` opens it."""
    return armor(pyrage.passphrase.encrypt(plaintext, passphrase))


def unlock(text: str, passphrase: str, where: str) -> bytes:
    data = dearmor(text, where)
    try:
        return pyrage.passphrase.decrypt(data, passphrase)
    except pyrage.DecryptError as exc:
        raise SealError(
            N_("wrong passphrase, or not a passphrase-protected file ({error})"),
            at=where,
            error=exc,
        ) from None
