"""Fair randomness: the game seed comes from three secret seeds, none chosen last.

Protocol (DESIGN.md, "Fair randomness"): the referee publishes a commitment to its secret
seed first; then each player sends a secret seed sealed to the referee, with a public
commitment. The game seed is derived from all three, so no single party can steer a
shuffle: a player cannot see the referee's seed before choosing, and the referee is bound
by its earlier commitment. At the end every seed is revealed and checked.

    seed commitment = hex(SHA-256(b"seki-seed-commit/1" || lp(role) || lp(seed)))
    game seed       = HKDF-SHA256(ikm  = lp(referee) || lp(ishida) || lp(tokugawa),
                                  salt = b"seki-game-seed/1",
                                  info = b"seki-game-seed/1" || lp(game id),
                                  length = 32)

A seed is 32 random bytes, so no salt is needed to hide it. The role is inside the
commitment so that one party cannot copy another's commitment and later reveal the same
seed. The order of the seeds is fixed (referee, ishida, tokugawa) and the game id is in
`info`, so the same three seeds give unrelated seeds in different games.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .framing import lp

SEED_BYTES = 32
ROLES = ("referee", "ishida", "tokugawa")
COMMIT_DOMAIN = b"seki-seed-commit/1"
GAME_SEED_TAG = b"seki-game-seed/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")


def new_seed() -> bytes:
    """A party's secret seed: 32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def _check(seed: bytes, role: str) -> bytes:
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        raise ValueError(f"the {role} seed must be {SEED_BYTES} bytes")
    return bytes(seed)


def seed_commitment(seed: bytes, role: str) -> str:
    """The public commitment to a party's seed (64 hex digits)."""
    seed = _check(seed, role)
    return hashlib.sha256(COMMIT_DOMAIN + lp(role) + lp(seed)).hexdigest()


def verify_seed(commitment: str, seed: bytes, role: str) -> bool:
    """True iff the revealed seed matches the party's earlier commitment. The seed and the
    commitment come from documents (a reveal, a join): either may be of any length, the
    commitment any text; the role is the caller's own (a bad one is a bug)."""
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        return False
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        return False  # compare_digest raises TypeError on text that is not ASCII
    return hmac.compare_digest(seed_commitment(seed, role), commitment)


def game_seed(referee: bytes, ishida: bytes, tokugawa: bytes, *, game_id: str) -> str:
    """The game's seed as 64 hex digits, for `sekigahara_pbem.rules.rng.new`."""
    if not game_id:
        raise ValueError("game id must not be empty")
    ikm = (
        lp(_check(referee, "referee"))
        + lp(_check(ishida, "ishida"))
        + lp(_check(tokugawa, "tokugawa"))
    )
    hkdf = HKDF(
        algorithm=hashes.SHA256(),
        length=32,
        salt=GAME_SEED_TAG,
        info=GAME_SEED_TAG + lp(game_id),
    )
    return hkdf.derive(ikm).hex()
