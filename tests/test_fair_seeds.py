"""Fair randomness (issues 11 and 19, "seed timing"): every seed is committed to before any
seed leaves its owner, so a referee colluding with the second player to join cannot show
it the first player's seed in time for it to choose its own, and `verify` checks the order.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sekigahara_pbem.crypto import sealing, signing
from sekigahara_pbem.crypto.seeds import seed_commitment
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol import game, joins
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify
from sekigahara_pbem.refusal import Refusal

NOW = "2026-11-22T12:00:00Z"


@pytest.fixture
def table(fresh_game):
    return fresh_game


def send(root: Path, ref, name: str, text: str) -> referee.Outcome:
    (outcome,) = referee.adjudicate(root, ref, [(name, text.encode())], NOW)
    return outcome


def test_after_the_first_join_the_referee_holds_nothing_of_its_seed(table):
    """The old join sealed the seed to the referee, who could open it and pass it (with its
    own) to the second joiner before that one chose its seed."""
    root, ref, players, definition = table
    first = joins.make_join(definition, players["ishida"])
    assert send(root, ref, "join-ishida", first).accepted
    join = joins.parse_join(definition, first, "join")
    assert join.sealed_seed is None  # a commitment and nothing else
    seed = joins.player_seed(definition, players["ishida"])
    held = [p.read_bytes() for p in root.rglob("*") if p.is_file()]
    secrets = game.open_secrets(GameDir(root), definition, ref)
    held.append(game.secrets_text(secrets).encode())
    assert not any(seed in blob or seed.hex().encode() in blob for blob in held)


def test_a_seed_is_sent_only_for_the_other_sides_signed_join(table):
    root, ref, players, definition = table
    own = joins.make_join(definition, players["ishida"])
    with pytest.raises(Refusal, match="own join"):
        joins.make_seed(definition, players["ishida"], own, "own")
    # a join for tokugawa forged by the referee is not signed by tokugawa's key
    body = signing.split(joins.make_join(definition, players["tokugawa"]))[0]
    with pytest.raises(Refusal):
        joins.make_seed(definition, players["ishida"], signing.sign(body, ref), "forged")


def test_a_colluding_second_joiner_cannot_change_its_seed_once_the_first_is_sent(table):
    """Tokugawa commits; ishida, holding that join, sends its seed; the colluding referee
    shows it to tokugawa, who grinds a better seed: a second join and a seed that does not
    match the commitment are both refused, and ishida's seed names the join on file."""
    root, ref, players, definition = table
    ishida_join = joins.make_join(definition, players["ishida"])
    tokugawa_join = joins.make_join(definition, players["tokugawa"])
    assert send(root, ref, "ji", ishida_join).accepted
    assert send(root, ref, "jt", tokugawa_join).accepted
    ishida_seed = joins.make_seed(definition, players["ishida"], tokugawa_join, "jt")
    assert send(root, ref, "si", ishida_seed).accepted

    ground = bytes(32)  # the seed tokugawa would now prefer
    body = {
        "format": joins.JOIN_FORMAT, "game": "g", "side": "tokugawa",
        "definition": definition.hash, "seed_commitment": seed_commitment(ground, "tokugawa"),
    }  # fmt: skip
    second = signing.sign(docs.dump(body), players["tokugawa"])
    refused = send(root, ref, "jt2", second)
    assert not refused.accepted and "already joined" in refused.message

    context = sealing.SealContext("g", 0, definition.referee.name, "seed-tokugawa")
    body = {
        "format": joins.SEED_FORMAT, "game": "g", "side": "tokugawa",
        "definition": definition.hash, "other_join": docs.sha256(ishida_join),
        "seed": docs.wrap(sealing.seal_text(ground, definition.referee.encryption, context)),
    }  # fmt: skip
    swapped = signing.sign(docs.dump(body), players["tokugawa"])
    refused = send(root, ref, "st", swapped)
    assert not refused.accepted and "does not match its commitment" in refused.message
    assert GameDir(root).last_seq() == 0

    good = joins.make_seed(definition, players["tokugawa"], ishida_join, "ji")
    outcome = send(root, ref, "st", good)
    assert outcome.accepted and "set up" in outcome.message


def test_a_seed_naming_another_join_is_refused(table):
    root, ref, players, definition = table
    ishida_join = joins.make_join(definition, players["ishida"])
    tokugawa_join = joins.make_join(definition, players["tokugawa"])
    body = {
        "format": joins.JOIN_FORMAT, "game": "g", "side": "tokugawa",
        "definition": definition.hash, "seed_commitment": seed_commitment(bytes(32), "tokugawa"),
    }  # fmt: skip
    shown = signing.sign(docs.dump(body), players["tokugawa"])  # what ishida was shown
    assert send(root, ref, "ji", ishida_join).accepted
    assert send(root, ref, "jt", tokugawa_join).accepted  # what the referee filed
    outcome = send(root, ref, "si", joins.make_seed(definition, players["ishida"], shown, "x"))
    assert not outcome.accepted and "does not name tokugawa's join on file" in outcome.message


def test_seeds_before_both_joins_and_first_format_joins_are_refused(table):
    root, ref, players, definition = table
    ishida_join = joins.make_join(definition, players["ishida"])
    tokugawa_join = joins.make_join(definition, players["tokugawa"])
    assert send(root, ref, "ji", ishida_join).accepted
    early = joins.make_seed(definition, players["tokugawa"], ishida_join, "ji")
    outcome = send(root, ref, "st", early)
    assert not outcome.accepted and "not joined yet" in outcome.message

    seed = joins.player_seed(definition, players["tokugawa"])
    context = sealing.SealContext("g", 0, definition.referee.name, "seed-tokugawa")
    body = {
        "format": joins.JOIN_FORMAT_V1, "game": "g", "side": "tokugawa",
        "definition": definition.hash, "seed_commitment": seed_commitment(seed, "tokugawa"),
        "seed": docs.wrap(sealing.seal_text(seed, definition.referee.encryption, context)),
    }  # fmt: skip
    outcome = send(root, ref, "old", signing.sign(docs.dump(body), players["tokugawa"]))
    assert not outcome.accepted and "seki-join/1" in outcome.message
    assert send(root, ref, "jt", tokugawa_join).accepted
    assert not GameDir(root).seed("tokugawa").exists()


def test_verify_checks_that_each_seed_names_the_other_join(table, tmp_path):
    root, ref, players, definition = table
    for name, text in joins.opening(definition, players):
        assert send(root, ref, name, text).accepted
    assert verify.verify(root).notes == [
        "not revealed yet: states, draws and sealed parts not checked"
    ]
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    other = copy / "joins" / "tokugawa.txt"
    body = signing.split(other.read_text())[0].replace("seed_commitment: ", "seed_commitment: 0")
    other.write_text(signing.sign(body, players["tokugawa"]))
    with pytest.raises(verify.Discrepancy, match="ishida-seed.txt: other_join"):
        verify.verify(copy)


def test_seki_join_answers_the_other_join_with_the_seed(tmp_path):
    def seki(home: str, *args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "SEKI_HOME": str(tmp_path / home)}
        return subprocess.run([sys.executable, "-m", "sekigahara_pbem", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=120)  # fmt: skip

    seki("ref", "keys", "new", "ref")
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(seki(name, "keys", "new", name).stdout)
    seki(
        "ref", "game", "new", "g", "--key", "ref", "--ishida", "alice.pub", "--tokugawa", "bob.pub"
    )
    assert seki("alice", "join", "g/game.txt", "--key", "alice").returncode == 0
    assert seki("bob", "join", "g/game.txt", "--key", "bob").returncode == 0
    own = seki("alice", "join", "join-g-ishida.txt", "--key", "alice")
    assert own.returncode == 1 and own.stderr.count("\n") == 1 and "own join" in own.stderr
    (tmp_path / "alice" / "games" / "g.txt").unlink()  # joined on another machine
    forgotten = seki("alice", "join", "join-g-tokugawa.txt", "--key", "alice")
    assert forgotten.returncode == 1 and "--game game.txt" in forgotten.stderr
    done = seki("alice", "join", "join-g-tokugawa.txt", "--key", "alice", "--game", "g/game.txt")
    assert done.returncode == 0 and "wrote seed-g-ishida.txt" in done.stderr and not done.stdout
    seki("bob", "join", "join-g-ishida.txt", "--key", "bob")
    out = seki("ref", "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt",
               "seed-g-ishida.txt", "seed-g-tokugawa.txt", "--key", "ref")  # fmt: skip
    assert out.returncode == 0 and "set up (record 1)" in out.stdout, out.stdout + out.stderr
