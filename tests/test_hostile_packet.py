"""Referee mode against a modified referee: a packet signed with the referee's real key
whose sealed section is not what any referee writes is refused by the player's commands
in one line, never an internal error (docs/protocol.md, "Packets"). The attack is played
through the real files: the packet of a started game, its section opened, changed,
sealed to the player again and the packet signed with the referee's key."""

from __future__ import annotations

import json

import pytest
import yaml
from test_pbem_cli import _started, seki

from sekigahara_pbem.crypto import agefile, signing
from sekigahara_pbem.crypto.keystore import identity_path, read_identity
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol.game import parse
from sekigahara_pbem.refusal import ExitStatus

SECTIONS = {
    "events that are no list": {"events": None},
    "an event that is no mapping": {"events": [7]},
    "options that are no list": {"options": {"type": "end_movement"}},
    "a view that is no mapping": {"view": []},
}


@pytest.mark.parametrize("change", SECTIONS.values(), ids=SECTIONS.keys())
def test_a_packet_whose_section_is_of_another_shape_is_refused(tmp_path, change):
    """The referee's modified client seals to Alice a section whose events, options or
    view are of a shape the engine never writes, and signs the packet with its key. `seki
    view` and `seki bot turn` refuse the packet in one line naming it, exit 1. (Old code:
    events that are no list, and a view that is no mapping, stopped `seki view` with an
    internal error, exit 70; an event or options of another shape went on into the
    report.)"""
    ref, alice, _ = _started(tmp_path)
    packet = tmp_path / "g" / "packets" / "000001-ishida.txt"
    body = yaml.safe_load(signing.split(packet.read_text(encoding="utf-8"))[0])
    player = read_identity(identity_path(alice, "alice"))
    section = json.loads(agefile.open_armored(body["section"], player, "section"))
    definition = parse((tmp_path / "g" / "game.txt").read_text(encoding="utf-8"), "game.txt")
    body["section"] = agefile.seal(
        json.dumps({**section, **change}).encode(), definition.players["ishida"]
    )
    forged = tmp_path / "forged-packet.txt"
    forged.write_text(
        signing.sign(docs.dump(body), read_identity(identity_path(ref, "ref"))), encoding="utf-8"
    )
    for command in (["view", str(forged)], ["bot", "turn", str(forged), "--out", "t.txt"]):
        done = seki(alice, *command, "--key", "alice", cwd=tmp_path)
        assert done.returncode == ExitStatus.REFUSED, done.stderr
        said = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(said) == 1 and "forged-packet.txt: section" in said[0], done.stderr
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert not (tmp_path / "t.txt").exists()
