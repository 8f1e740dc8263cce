"""Sizes are no side channel (issue 19): packets' sealed sections are padded, so for a
sealed decision (a bid, 6.3; a half-hand discard, 6.2) every legal choice yields packets
of the same public size, for the side that chose and for its opponent. The one exception
is age's "grease" stanza, of random length whatever the content (age-encryption.org/v1):
sizes are compared without it."""

from __future__ import annotations

import base64

import pytest
import yaml

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.protocol import game, packets
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.engine import apply
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.vocab import BID, DISCARD, SIDES
from sekigahara_pbem.testing.random_player import playout


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    referee = generate("referee")
    players = {"ishida": generate("alice").public, "tokugawa": generate("bob").public}
    root = tmp_path_factory.mktemp("sizes") / "g"
    definition = game.create(root, "g", referee, players, components_hash(), {},
                             "2026-11-22T00:00:00Z")  # fmt: skip
    return definition, referee


def _sizes(packet: str) -> tuple[int, int]:
    """The packet's length but for its sealed section, and the section's age file's length
    but for the grease stanza."""
    armored = yaml.safe_load(signing.split(packet)[0])["section"]
    data = base64.b64decode("".join(armored.strip().splitlines()[1:-1]))
    header = data[: data.index(b"\n---")].split(b"\n-> ")
    grease = [stanza for stanza in header if b"-grease" in stanza.split(b"\n")[0]]
    shown = len(armored) + 2 * armored.count("\n")  # each line indented in the YAML
    return len(packet) - shown, len(data) - sum(len(g) + 4 for g in grease)


def _sealed_positions(comp, seed: int) -> list[tuple[dict, str]]:
    found = []

    def keep(before, after, side, action, events):
        if before["step"] in (BID, DISCARD) and len(found) < 6:
            found.append((before, side))

    playout(comp, seed, on_step=keep, plans=False)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_every_choice_of_a_sealed_decision_gives_packets_of_one_size(comp, table, seed):
    definition, referee = table
    chooser = rng.new(f"{seed + 3:032x}")
    checked = 0
    for state, side in _sealed_positions(comp, seed):
        choices = options(state, comp, side)
        if len(choices) > 12:
            choices = [choices[rng.below(chooser, len(choices))] for _ in range(12)]
        sizes = set()
        for choice in choices:
            after, events = apply(state, comp, side, choice)
            if after["step"] == state["step"] and side in after["sealed"]:  # still sealed
                following = packets.Following(5, "0" * 64, {})
                built = [packets.build(definition, referee, comp, following, after, events, s)
                         for s in SIDES]  # fmt: skip
                sizes.add(tuple(size for p in built for size in _sizes(p)))
        assert len(sizes) <= 1, sizes
        checked += len(choices)
    assert checked
