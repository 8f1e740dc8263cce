"""The game's random generator `seki-sha256-ctr/1`: the vectors published in docs/random.md.

An archive must re-derive every shuffle and draw years from now, so these numbers are a
contract: if one of these tests fails, the generator changed and old games no longer verify.
"""

from __future__ import annotations

import hashlib

import pytest

from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.vocab import Malformed

ZERO_SEED = "00" * 16
COUNT_SEED = "000102030405060708090a0b0c0d0e0f"

# docs/random.md, "Test vectors". below(2**64) returns the raw word unchanged.
WORDS = {
    ZERO_SEED: [
        0x73F50178060EBACB,
        0x45E0F63318441E47,
        0x5FEE576B83B7DB7A,
        0xE53EB4ECCF9CE6CE,
        0x562B79BBE42B5B19,
    ],
    COUNT_SEED: [
        0x0012647687433CFA,
        0x6F29C420D3D8CB98,
        0xFD839D5B618645F4,
        0xAF7F1CF1918DB5F5,
        0xE8CEA5E175B4D3E2,
    ],
}
BELOW_6 = {
    ZERO_SEED: [5, 3, 0, 0, 5, 4, 5, 3, 0, 0],
    COUNT_SEED: [4, 4, 0, 5, 2, 4, 5, 5, 5, 3],
}
BELOW_1000 = {
    ZERO_SEED: [275, 903, 802, 966, 569, 632, 899, 153, 602, 890],
    COUNT_SEED: [18, 832, 196, 653, 922, 756, 17, 255, 149, 501],
}
SHUFFLE_10 = {
    ZERO_SEED: [1, 4, 6, 8, 7, 9, 0, 2, 3, 5],
    COUNT_SEED: [0, 3, 5, 7, 9, 6, 2, 4, 1, 8],
}
SHUFFLE_52 = {
    ZERO_SEED: [
        43, 9, 14, 29, 38, 16, 19, 15, 31, 34, 23, 0, 42, 48, 24, 40, 13, 26, 1, 12,
        50, 4, 7, 47, 10, 46, 5, 25, 33, 28, 51, 27, 6, 49, 8, 37, 30, 36, 39, 44,
        32, 45, 17, 22, 3, 21, 20, 41, 35, 2, 18, 11,
    ],
    COUNT_SEED: [
        36, 14, 43, 39, 42, 26, 13, 16, 41, 11, 9, 45, 6, 3, 44, 38, 22, 50, 37, 18,
        0, 7, 34, 8, 25, 17, 24, 21, 47, 4, 28, 12, 48, 20, 49, 51, 29, 23, 15, 19,
        31, 32, 33, 1, 35, 27, 5, 2, 30, 46, 40, 10,
    ],
}  # fmt: skip
SEEDS = [ZERO_SEED, COUNT_SEED]


@pytest.mark.parametrize("seed", SEEDS)
def test_words_match_published_vectors(seed):
    g = rng.new(seed)
    assert [rng.below(g, 1 << 64) for _ in range(5)] == WORDS[seed]
    assert g["n"] == 5


@pytest.mark.parametrize("seed", SEEDS)
def test_words_follow_the_documented_byte_layout(seed):
    """word n = first 8 bytes, big-endian, of SHA-256(b"seki-rng/1" || seed || n as u64be)."""
    for n, word in enumerate(WORDS[seed]):
        message = b"seki-rng/1" + bytes.fromhex(seed) + n.to_bytes(8, "big")
        assert int.from_bytes(hashlib.sha256(message).digest()[:8], "big") == word


@pytest.mark.parametrize("seed", SEEDS)
def test_below_6_matches_published_vectors(seed):
    g = rng.new(seed)
    assert [rng.below(g, 6) for _ in range(10)] == BELOW_6[seed]


@pytest.mark.parametrize("seed", SEEDS)
def test_below_1000_matches_published_vectors(seed):
    g = rng.new(seed)
    assert [rng.below(g, 1000) for _ in range(10)] == BELOW_1000[seed]


@pytest.mark.parametrize("size", [10, 52])
@pytest.mark.parametrize("seed", SEEDS)
def test_shuffles_match_published_vectors(seed, size):
    g = rng.new(seed)
    items = list(range(size))
    rng.shuffle(g, items)
    assert items == {10: SHUFFLE_10, 52: SHUFFLE_52}[size][seed]
    assert g["n"] == size - 1


def test_rejection_sampling_skips_words_at_or_above_the_limit():
    """docs/random.md: with k = 2**63 + 1 the 4th call rejects word 3 and returns word 4."""
    g = rng.new(ZERO_SEED)
    k = (1 << 63) + 1
    got = [rng.below(g, k) for _ in range(4)]
    words = WORDS[ZERO_SEED]
    assert words[3] >= k  # above the limit 2**64 - (2**64 % k) == k
    assert got == [words[0], words[1], words[2], words[4]]
    assert g["n"] == 5


@pytest.mark.parametrize("k", [1, 2, 3, 6, 7, 55, 1000, (1 << 63) + 1, 1 << 64])
def test_below_stays_within_range(k):
    g = rng.new(COUNT_SEED)
    for _ in range(200):
        assert 0 <= rng.below(g, k) < k


@pytest.mark.parametrize("k", [0, -1, -6])
def test_below_rejects_nonpositive_k(k):
    g = rng.new(ZERO_SEED)
    with pytest.raises(ValueError):
        rng.below(g, k)
    assert g["n"] == 0


@pytest.mark.parametrize("seed", ["", "00", "00" * 15])
def test_seed_shorter_than_16_bytes_is_refused(seed):
    with pytest.raises(Malformed, match="32 or more hex digits"):
        rng.new(seed)


def test_seed_of_16_bytes_or_more_is_accepted_and_stored_lowercase():
    assert rng.new("AB" * 16) == {"alg": rng.ALGORITHM, "seed": "ab" * 16, "n": 0}
    assert rng.new("00" * 32)["seed"] == "00" * 32


def test_unknown_algorithm_name_raises():
    g = rng.new(ZERO_SEED)
    g["alg"] = "seki-sha256-ctr/0"
    with pytest.raises(ValueError, match="unknown generator algorithm"):
        rng.below(g, 6)


def test_algorithm_name_is_versioned():
    assert rng.ALGORITHM == "seki-sha256-ctr/1"
    assert rng.new(ZERO_SEED)["alg"] == "seki-sha256-ctr/1"


def test_state_counter_advances_one_per_word():
    g = rng.new(ZERO_SEED)
    assert g["n"] == 0
    rng.below(g, 6)
    assert g["n"] == 1
    rng.below(g, 1)  # k = 1 still consumes a word
    assert g["n"] == 2
    for _ in range(10):
        rng.below(g, 1000)
    assert g["n"] == 12


def test_generator_state_is_plain_data_and_resumable():
    """The state is a plain dict: a copy continues exactly where the original would."""
    g = rng.new(COUNT_SEED)
    for _ in range(3):
        rng.below(g, 6)
    copy = dict(g)
    assert [rng.below(copy, 6) for _ in range(7)] == BELOW_6[COUNT_SEED][3:]


@pytest.mark.parametrize("size", [0, 1, 2, 10, 55])
def test_shuffle_is_a_permutation(size):
    g = rng.new(COUNT_SEED)
    items = [f"card-{i}" for i in range(size)]
    rng.shuffle(g, items)
    assert sorted(items) == sorted(f"card-{i}" for i in range(size))
    assert g["n"] == max(size - 1, 0)


def test_below_6_is_roughly_uniform():
    """Chi-square over 60,000 draws (5 degrees of freedom); 30 is a very loose bound."""
    g = rng.new(ZERO_SEED)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(g, 6)] += 1
    expected = 60_000 / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 30, (counts, chi2)
