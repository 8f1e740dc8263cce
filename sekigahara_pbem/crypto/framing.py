"""Unambiguous byte framing for the inputs of hashes, KDFs and HPKE `info` strings.

Concatenating fields directly is ambiguous ("ab" + "c" == "a" + "bc"), which would let one
context be confused with another. Every variable-length field is therefore written as its
length (4 bytes, big-endian) followed by its bytes. Every format in docs/crypto.md that
says "lp(x)" means this.
"""

from __future__ import annotations

_MAX = (1 << 32) - 1


def lp(field: bytes | str) -> bytes:
    """One length-prefixed field; text is encoded as UTF-8 first."""
    data = field.encode("utf-8") if isinstance(field, str) else bytes(field)
    if len(data) > _MAX:
        raise ValueError("field too long to frame")
    return len(data).to_bytes(4, "big") + data


def frame(*fields: bytes | str) -> bytes:
    """Several length-prefixed fields, in order."""
    return b"".join(lp(f) for f in fields)
