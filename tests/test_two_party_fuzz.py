"""A hostile opponent in a two-party game (issue 14): it can sign anything, so every
mutation of its real records, signed again with its own key, must be taken or refused
with a Refusal, never crash the reader, and a refused one must leave the reader's
directory as it was. Mutations are seeded (tests/fuzzing.py); SEKI_2P_FUZZ=N sets how
many per record, SEKI_2P_SEED=S the seed."""

from __future__ import annotations

import os
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from fuzzing import mutate

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.vocab import ISHIDA, SIDES, other
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty.match import player_chooser
from sekigahara_pbem.twoparty.side import Side

NOW = "2026-11-23T06:00:00Z"

PER_RECORD = int(os.environ.get("SEKI_2P_FUZZ", "6"))
RECORDS = range(4, 60, 2)  # the records whose mutations are tried


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_a_hostile_opponent_never_crashes_the_reader(tmp_path):
    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    players = {s: k.public for s, k in keys.items()}
    text = files.make_game("fuzz", components_hash(), {}, players, keys[ISHIDA])
    game = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (tmp_path / s).mkdir()
        (tmp_path / s / "game.txt").write_text(text)
        sides[s] = Side(tmp_path / s, game, keys[s], comp)
    choosers = {s: player_chooser(make_player("heuristic", comp, {}, f"f-{s}")) for s in SIDES}
    joins = {s: sides[s].join(NOW) for s in SIDES}
    for s in SIDES:
        sides[other(s)].receive(joins[s], "join", NOW)
    rnd = random.Random(int(os.environ.get("SEKI_2P_SEED", "2026")))
    outcomes: Counter = Counter()
    turn = ISHIDA
    for n in range(2, max(RECORDS) + 1):
        if sides[turn].result() is not None:
            break
        sent = sides[turn].turn(choosers[turn], NOW)
        reader = sides[other(turn)]
        if n in RECORDS:
            body, _ = signing.split(sent)
            before = files_of(reader.root)
            for _ in range(PER_RECORD):
                try:
                    forged = signing.sign(mutate(body, rnd), keys[turn])
                except Refusal:
                    continue  # a body the signer refuses (empty, a marker line) is never sent
                try:
                    reader.receive(forged, "forged", NOW)
                    outcomes["taken"] += 1
                except Refusal as refused:
                    assert "\n" not in str(refused).strip()
                    assert files_of(reader.root) == before, f"refused, but changed: {refused}"
                    outcomes[type(refused).__name__] += 1
                shutil.rmtree(reader.root)
                reader.root.mkdir()
                for name, data in before.items():
                    (reader.root / name).parent.mkdir(parents=True, exist_ok=True)
                    (reader.root / name).write_bytes(data)
        reader.receive(sent, "mail", NOW)
        turn = other(turn)
    assert sum(outcomes.values()) > 100, outcomes
