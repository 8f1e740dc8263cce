"""The game's random generator: versioned, deterministic, and kept inside the state.

Algorithm `seki-sha256-ctr/1` (documented with test vectors in docs/random.md):
the n-th 64-bit word is the first 8 bytes (big-endian) of
SHA-256(b"seki-rng/1" || seed || n as 8 bytes big-endian), n = 0, 1, 2, ...
`below(k)` takes words until one falls under the largest multiple of k not above 2**64
(rejection sampling, so every result is exactly uniform) and returns it mod k.
`shuffle` is Fisher-Yates from the last position down.

A hash-based generator is used rather than a fast linear one because players see many of
its outputs (their own draws); with SHA-256 those outputs say nothing about the opponent's.
Python's `random` is never used: its algorithms may change between versions.
"""

from __future__ import annotations

import re
from hashlib import sha256 as _sha256

from ..refusal import N_
from .vocab import Malformed

ALGORITHM = "seki-sha256-ctr/1"
_DOMAIN = b"seki-rng/1"
_SPAN = 1 << 64


_SEED = re.compile(r"(?:[0-9a-fA-F]{2}){16,}")


def new(seed_hex: str) -> dict:
    """A fresh generator state from a hex seed (at least 16 bytes); a scenario or a
    position names its seed, so a seed that is not one is refused as the field's."""
    if not _SEED.fullmatch(seed_hex):
        raise Malformed("seed", N_("expected 32 or more hex digits, an even number"))
    return {"alg": ALGORITHM, "seed": seed_hex.lower(), "n": 0}


def below(rng: dict, k: int) -> int:
    """A uniform integer in [0, k); advances the generator in place. (Each word is
    hashed here rather than by a helper, and the message's prefix is built once a
    draw: the engine and every random player draw thousands of words a game.)"""
    if k <= 0:
        raise ValueError("k must be positive")
    if rng["alg"] != ALGORITHM:
        raise ValueError(f"unknown generator algorithm {rng['alg']!r}")
    prefix = _DOMAIN + bytes.fromhex(rng["seed"])
    limit = _SPAN - _SPAN % k
    n = rng["n"]
    while True:
        w = int.from_bytes(_sha256(prefix + n.to_bytes(8, "big")).digest()[:8], "big")
        n += 1
        if w < limit:
            rng["n"] = n
            return w % k


def shuffle(rng: dict, items: list) -> None:
    """Shuffle a list in place (Fisher-Yates, last position first)."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
