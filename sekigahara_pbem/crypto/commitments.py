"""Salted hash commitments: publish a hidden item now, prove later what it was.

Each hidden item (a block's identity, a card in hand, a sealed bid) is published only as
``commit(value, salt)``. The 32-byte random salt makes the commitment hiding even when the
value comes from a small set (there are few possible block identities), and the domain tag
and length prefixes make it binding to exactly one (salt, value) pair:

    commitment = hex(SHA-256(b"seki-commit/1" || lp(salt) || lp(value)))

where lp(x) is x's length as 4 bytes big-endian followed by x (framing.py), and a text
value is encoded as UTF-8. Structured values are committed as canonical JSON
(`canonical_json`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from typing import Any

from .framing import lp

DOMAIN = b"seki-commit/1"
SALT_BYTES = 32
_HEX64 = re.compile(r"[0-9a-f]{64}")


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text, no floats: one text per value."""
    if type(value) is list and all(type(x) is str or type(x) is int for x in value):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)  # the common case

    def refuse_floats(obj: Any) -> None:
        if isinstance(obj, float):
            raise ValueError("floats have no canonical form here; use integers or strings")
        if isinstance(obj, dict):
            for k, v in obj.items():
                refuse_floats(k)
                refuse_floats(v)
        elif isinstance(obj, list | tuple):
            for v in obj:
                refuse_floats(v)

    refuse_floats(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def new_salt() -> bytes:
    """32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SALT_BYTES)


def _is_salt(salt: object) -> bool:
    """Whether `salt` is one: 32 bytes, or their 64 lower-case hex digits."""
    if isinstance(salt, str):
        return _HEX64.fullmatch(salt) is not None
    return isinstance(salt, bytes | bytearray) and len(salt) == SALT_BYTES


def _salt_bytes(salt: bytes | str) -> bytes:
    """The salt's bytes. Every caller passes a salt it made or checked (a document's is
    checked where it is parsed, protocol/documents.is_hex): any other is a bug."""
    if not _is_salt(salt):
        raise ValueError(f"salt must be {SALT_BYTES} bytes or {2 * SALT_BYTES} hex digits")
    return bytes.fromhex(salt) if isinstance(salt, str) else bytes(salt)


def _value_bytes(value: str | bytes) -> bytes:
    """A text value as UTF-8. A lone surrogate, which UTF-8 cannot encode, is written as
    its three bytes ("surrogatepass"): another party's opening may hold one (YAML and JSON
    escape it, "\\ud800"); no honest value does, so it matches no commitment, and is
    refused as a mismatch, not raised as a UnicodeEncodeError."""
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else bytes(value)


def commit(value: str | bytes, salt: bytes | str) -> str:
    """The commitment (64 lower-case hex digits) to `value` under `salt` (bytes or hex)."""
    digest = hashlib.sha256(DOMAIN + lp(_salt_bytes(salt)) + lp(_value_bytes(value)))
    return digest.hexdigest()


def verify(commitment: str, value: str | bytes, salt: bytes | str) -> bool:
    """True iff `commitment` is the commitment to `value` under `salt`."""
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        return False
    if not _is_salt(salt):
        return False
    return hmac.compare_digest(commit(value, salt), commitment)
