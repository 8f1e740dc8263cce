"""Decompression bombs (issue 19): a sealed state or packet section that inflates beyond
any real one, and an oversized file in the game directory, are refused at once with the
file named, instead of inflating to gigabytes in every auditor's `seki verify`."""

from __future__ import annotations

import zlib

import pytest

from sekigahara_pbem.crypto import sealing, signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.protocol import chain, documents, packets
from sekigahara_pbem.protocol.game import Definition, Secrets

BOMB = zlib.compress(b"\0" * 200_000_000, 9)  # 200 MB of zeros in about 200 KB


def test_inflate_stops_at_its_limit():
    assert len(BOMB) < 300_000
    with pytest.raises(documents.DocumentError, match="inflates to more than"):
        documents.inflate(BOMB, "x")
    with pytest.raises(documents.DocumentError, match="cut short"):
        documents.inflate(zlib.compress(b"hello")[:-3], "x")
    with pytest.raises(documents.DocumentError, match="not zlib"):
        documents.inflate(b"plain text", "x")
    assert documents.inflate(zlib.compress(b"hello"), "x") == b"hello"


def _game(tmp_path) -> tuple[Definition, Secrets, object]:
    from sekigahara_pbem.protocol import game
    from sekigahara_pbem.protocol.component_files import components_hash

    referee = generate("referee")
    players = {"ishida": generate("alice").public, "tokugawa": generate("bob").public}
    definition = game.create(tmp_path / "g", "g", referee, players, components_hash(), {},
                             "2026-11-22T00:00:00Z")  # fmt: skip
    return definition, game.open_secrets(game.GameDir(tmp_path / "g"), definition, referee), referee


def test_a_sealed_state_bomb_is_refused_naming_the_file(tmp_path):
    definition, secrets, _ = _game(tmp_path)
    context = sealing.SealContext("g", 3, chain.STATE_RECIPIENT, "state")
    text = sealing.seal_text(BOMB, definition.state_key, context)
    with pytest.raises(documents.DocumentError, match=r"sealed/000003.txt.*more than"):
        chain.open_state(definition, secrets, 3, text)


def test_a_packet_section_bomb_is_refused(tmp_path):
    definition, _, referee = _game(tmp_path)
    alice = generate("alice")
    definition.players["ishida"] = alice.public
    context = sealing.SealContext("g", 1, "alice", "packet")
    token = sealing.seal_text(BOMB, alice.public.encryption, context)
    fields = {"format": packets.PACKET_FORMAT, "game": "g", "definition": definition.hash,
              "seq": 1, "to": "ishida"}  # fmt: skip
    body = documents.dump({**fields, "record": "0" * 64, "section": documents.wrap(token)})
    text = signing.sign(body, referee)
    with pytest.raises(documents.DocumentError, match="more than"):
        packets.open_packet(definition, text, alice, "packet.txt")


def test_an_oversized_file_is_refused_naming_it(tmp_path):
    path = tmp_path / "000001.txt"
    path.write_bytes(b"x" * (documents.MAX_BYTES + 1))
    with pytest.raises(documents.DocumentError, match="000001.txt: larger than"):
        documents.read_capped(path)
