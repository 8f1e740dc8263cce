"""Issue 31: age's key encoding without the unmaintained reference package: BIP 173's own
test vectors, and the real `age-keygen` reads seki's identity to seki's recipient."""

import os
import shutil
import subprocess

import pytest

from sekigahara_pbem.crypto import agefile, bech32, keys


def _bytes(words: list[int]) -> bytes:
    """5-bit groups back to bytes (vectors whose bits fill whole bytes)."""
    assert len(words) * 5 % 8 == 0
    value = 0
    for w in words:
        value = value << 5 | w
    return value.to_bytes(len(words) * 5 // 8, "big")


@pytest.mark.parametrize(
    "valid",
    [
        "a12uel5l",
        "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
        "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
    ],
)
def test_bip173_valid_strings_are_encoded_exactly(valid):
    hrp, rest = valid.rsplit("1", 1)
    words = [bech32.CHARSET.index(c) for c in rest[:-6]]
    assert bech32.encode(hrp, _bytes(words)) == valid


def test_padding_bits_of_a_32_byte_key_are_zero():
    """32 bytes are 256 bits: 52 groups, the last padded with four zero bits, as age's."""
    encoded = bech32.encode("age", b"\xff" * 32)
    assert len(encoded) == len("age1") + 52 + 6
    assert bech32.CHARSET.index(encoded[4 + 51]) == 0b10000


def test_age_keygen_reads_seki_identity_to_seki_recipient(tmp_path):
    """`age-keygen -y` derives the recipient from the identity `seki keys age` prints: the
    same `age1…` seki seals to, so both encodings are age's own."""
    tool = shutil.which("age-keygen")
    if tool is None:
        if os.environ.get("SEKI_REQUIRE_SERVERS"):
            pytest.fail("SEKI_REQUIRE_SERVERS=1 but age is missing")
        pytest.skip("age is not installed (apt-get install age)")
    for name in ("alice", "bob", "carol"):
        identity = keys.generate(name)
        secret = tmp_path / f"{name}.age"
        secret.write_text(agefile.age_identity(identity) + "\n")
        derived = subprocess.run(
            [tool, "-y", str(secret)], capture_output=True, text=True, check=True
        ).stdout.strip()
        assert derived == agefile.age_recipient(identity.public)
