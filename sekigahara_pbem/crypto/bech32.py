"""Bech32 encoding (BIP 173), which age uses for its keys: `age1…` recipients and
`AGE-SECRET-KEY-1…` identities (age-encryption.org/v1, "Native X25519 keys").

Only encoding is here: seki writes a key it holds as raw bytes in the form `age` and
pyrage read, and those parse and check what they read themselves. The only library for it
was the BIP's reference copy, unmaintained since 2020 (issue 31); the encoding is the
BIP's few lines, checked against its test vectors and against `age-keygen -y`
(tests/test_bech32.py). It is a checksum against typing errors, not cryptography.
"""

from __future__ import annotations

CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


def _polymod(values: list[int]) -> int:
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i, g in enumerate(GENERATOR):
            if top >> i & 1:
                check ^= g
    return check


def _expanded(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _five_bit(data: bytes) -> list[int]:
    """The bytes regrouped in 5-bit groups, the last padded with zero bits."""
    bits = int.from_bytes(data, "big") << (-len(data) * 8) % 5
    count = -(-len(data) * 8 // 5)
    return [bits >> 5 * (count - 1 - i) & 31 for i in range(count)]


def encode(hrp: str, data: bytes) -> str:
    """`data` under the human-readable part `hrp` (lower case), with its checksum."""
    words = _five_bit(data)
    mod = _polymod(_expanded(hrp) + words + [0] * 6) ^ 1
    checksum = [mod >> 5 * (5 - i) & 31 for i in range(6)]
    return hrp + "1" + "".join(CHARSET[w] for w in words + checksum)
