"""Sealed sections: per-recipient secrets inside otherwise public packets and files.

HPKE (RFC 9180) base mode, single-shot, as implemented by `cryptography`:
DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305. ChaCha20-Poly1305 is chosen over
AES-GCM because it is constant-time without hardware support on every machine a player
might use.

The HPKE `info` string binds a section to its context: the game id, the packet's sequence
number, the recipient's name and a purpose label (e.g. "hand", "referee-state"). A section
cut from one packet and pasted into another (other game, other turn, other player, other
slot) therefore fails to open, instead of silently showing stale or foreign secrets.

Text form (one token, safe in YAML and mail): ``seki-sealed1:`` followed by the standard
base64 of HPKE's output (the 32-byte encapsulated key, then the AEAD ciphertext and tag).
Whitespace inside the token is ignored when reading, so it may be wrapped in a YAML
folded or literal block.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.hpke import AEAD, KDF, KEM, Suite

from ..refusal import N_, Code, Refusal, quoted
from .b64 import is_base64
from .framing import frame
from .keys import check_name

SUITE = Suite(KEM.X25519, KDF.HKDF_SHA256, AEAD.CHACHA20_POLY1305)
INFO_TAG = b"seki-seal/1"
TEXT_PREFIX = "seki-sealed1:"
_ENC_LEN = 32
_TAG_LEN = 16
_WHITESPACE = re.compile(r"\s+")


class SealError(Refusal):
    """A sealed section could not be opened or parsed; the message says why."""

    code = Code.BAD_SEAL


@dataclass(frozen=True)
class SealContext:
    """Where a sealed section belongs: it opens only in exactly this context."""

    game_id: str
    seq: int
    recipient: str
    purpose: str = "section"

    def info(self) -> bytes:
        """HPKE info: tag || lp(game id) || lp(seq as decimal) || lp(recipient) || lp(purpose)."""
        if not self.game_id:
            raise ValueError("game id must not be empty")
        if self.seq < 0:
            raise ValueError("sequence number must not be negative")
        check_name(self.recipient)
        return INFO_TAG + frame(self.game_id, str(self.seq), self.recipient, self.purpose)


def seal(plaintext: bytes, recipient: X25519PublicKey, context: SealContext) -> bytes:
    """Encrypt to the recipient's X25519 key; a fresh ephemeral key every time."""
    return SUITE.encrypt(plaintext, recipient, info=context.info())


def open_sealed(sealed: bytes, private_key: X25519PrivateKey, context: SealContext) -> bytes:
    """Decrypt; fails if the data was altered, sealed to another key or another context."""
    if len(sealed) < _ENC_LEN + _TAG_LEN:
        raise SealError(N_("sealed section too short ({count} bytes)"), count=len(sealed))
    info = context.info()
    try:
        return SUITE.decrypt(sealed, private_key, info=info)
    except InvalidTag:
        raise SealError(
            N_(
                "sealed section does not open for {recipient} in game {game} seq {seq} "
                "({purpose}): wrong key, wrong context, or altered"
            ),
            recipient=quoted(context.recipient),
            game=quoted(context.game_id),
            seq=context.seq,
            purpose=context.purpose,
        ) from None


def to_text(sealed: bytes) -> str:
    """The one-token text form used in YAML files."""
    return TEXT_PREFIX + base64.b64encode(sealed).decode("ascii")


def from_text(text: str) -> bytes:
    """Parse the text form; whitespace (YAML wrapping) is ignored."""
    token = _WHITESPACE.sub("", text)
    if not token.startswith(TEXT_PREFIX):
        raise SealError(N_("sealed section must start with {prefix}"), prefix=quoted(TEXT_PREFIX))
    data = token[len(TEXT_PREFIX) :]
    if not is_base64(data):
        raise SealError(N_("sealed section is not valid base64"))
    return base64.b64decode(data, validate=True)


def seal_text(plaintext: bytes, recipient: X25519PublicKey, context: SealContext) -> str:
    """seal() then to_text()."""
    return to_text(seal(plaintext, recipient, context))


def open_text(text: str, private_key: X25519PrivateKey, context: SealContext) -> bytes:
    """from_text() then open_sealed()."""
    return open_sealed(from_text(text), private_key, context)
