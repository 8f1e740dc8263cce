"""Sealed sections: open only for their recipient, in their exact context, unaltered."""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from sekigahara_pbem.crypto import keys, sealing
from sekigahara_pbem.crypto.sealing import SealContext, SealError

SECRET = b"hand: [c12, c31, c40]\nbag: 7\n"
CTX = SealContext(game_id="demo-1", seq=12, recipient="ishida", purpose="hand")


@pytest.fixture(scope="module")
def ishida() -> keys.Identity:
    return keys.generate("ishida")


@pytest.fixture(scope="module")
def sealed(ishida) -> bytes:
    return sealing.seal(SECRET, ishida.public.encryption, CTX)


def test_seal_open_round_trip(sealed, ishida):
    assert sealing.open_sealed(sealed, ishida.encryption, CTX) == SECRET


def test_sealing_twice_gives_different_ciphertexts(sealed, ishida):
    assert sealing.seal(SECRET, ishida.public.encryption, CTX) != sealed


def test_text_form_round_trips_through_yaml(sealed, ishida):
    text = sealing.to_text(sealed)
    assert text.startswith("seki-sealed1:") and "\n" not in text
    wrapped = yaml.safe_dump({"ishida": text}, width=40)
    assert sealing.open_text(yaml.safe_load(wrapped)["ishida"], ishida.encryption, CTX) == SECRET
    spaced = text[:30] + "\n  " + text[30:]
    assert sealing.from_text(spaced) == sealed


def test_every_single_byte_flip_in_the_ciphertext_is_detected(sealed, ishida):
    for i in range(len(sealed)):
        flipped = bytearray(sealed)
        flipped[i] ^= 0x01
        with pytest.raises(SealError):
            sealing.open_sealed(bytes(flipped), ishida.encryption, CTX)


def test_truncated_ciphertext_is_refused(sealed, ishida):
    for cut in (0, 10, 47, len(sealed) - 1):
        with pytest.raises(SealError):
            sealing.open_sealed(sealed[:cut], ishida.encryption, CTX)


@pytest.mark.parametrize(
    "change",
    [
        {"game_id": "demo-2"},
        {"seq": 13},
        {"seq": 1},
        {"recipient": "tokugawa"},
        {"purpose": "bag"},
    ],
)
def test_section_moved_to_another_context_does_not_open(sealed, ishida, change):
    other = dataclasses.replace(CTX, **change)
    with pytest.raises(SealError, match="does not open"):
        sealing.open_sealed(sealed, ishida.encryption, other)


def test_info_fields_cannot_be_shifted_into_each_other():
    a = SealContext(game_id="demo-1", seq=12, recipient="ishida")
    b = SealContext(game_id="demo-11", seq=2, recipient="ishida")
    assert a.info() != b.info()
    assert a.info().startswith(b"seki-seal/1\x00\x00\x00\x06demo-1\x00\x00\x00\x0212")


def test_other_key_cannot_open(sealed):
    with pytest.raises(SealError):
        sealing.open_sealed(sealed, keys.generate("ishida").encryption, CTX)


def test_bad_text_form_is_refused():
    with pytest.raises(SealError, match="must start with"):
        sealing.from_text("hello")
    with pytest.raises(SealError, match="not valid base64"):
        sealing.from_text("seki-sealed1:abc*")
