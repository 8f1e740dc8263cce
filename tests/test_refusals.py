"""Refusals and bugs told apart (issue 12): an input the sender must fix is refused with a
named code and kept; anything else is a bug that stops the run and leaves the game exactly
as it was, so no player is told to fix a file that was never wrong."""

from __future__ import annotations

import subprocess
from dataclasses import replace

import pytest

from sekigahara_pbem import refusal
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.protocol import joins, packets, turns
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.rules import engine

NOW = "2026-11-22T12:00:00Z"


@pytest.fixture
def table(fresh_game):
    root, ref, players, definition = fresh_game
    for name, text in joins.opening(definition, players):
        referee.adjudicate(root, ref, [(name, text.encode())], NOW)
    return fresh_game


def _send(root, ref, text: str) -> referee.Outcome:
    (outcome,) = referee.adjudicate(root, ref, [("in.txt", text.encode())], NOW)
    return outcome


def _snapshot(root) -> tuple[str, str]:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True)
    files = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=root,
                           capture_output=True, text=True)  # fmt: skip
    return head.stdout, files.stdout


def test_each_refusal_names_its_code(table):
    root, ref, players, definition = table
    alice, bob = players["ishida"], players["tokugawa"]
    packet = GameDir(root).packet(1, "ishida").read_text()
    bid = Bot(alice, definition, "codes").answer(packet, "")
    assert _send(root, ref, "not a document").code == refusal.Code.BAD_SIGNATURE
    assert _send(root, ref, "x" * 1_000_001).code == refusal.Code.TOO_LARGE
    body = turns.body(definition, "ishida", 1, [{"type": "plan", "plan": {}}])
    assert _send(root, ref, signing.sign(body, bob)).code == refusal.Code.WRONG_SIDE
    other_game = replace(definition, game_id="h")
    elsewhere = turns.body(other_game, "ishida", 1, [{"type": "plan", "plan": {}}])
    assert _send(root, ref, signing.sign(elsewhere, alice)).code == refusal.Code.WRONG_GAME
    illegal = turns.body(definition, "ishida", 1, [{"type": "discard", "cards": []}])
    refused = _send(root, ref, signing.sign(illegal, alice))
    assert refused.code == refusal.Code.ILLEGAL and refused.message.count("6.") >= 1
    unknown = turns.body(definition, "ishida", 1, [{"type": "bid", "card": 5}])
    assert _send(root, ref, signing.sign(unknown, alice)).code == refusal.Code.MALFORMED
    assert _send(root, ref, bid).accepted
    again = _send(root, ref, bid)
    assert not again.accepted and again.code in (refusal.Code.STALE, refusal.Code.NOT_ASKED)
    join = joins.make_join(definition, alice)
    assert _send(root, ref, join).code == refusal.Code.NOT_STARTED
    extension = turns.body(definition, "tokugawa", 2, [turns.EXTENSION])  # no deadlines here
    assert _send(root, ref, signing.sign(extension, bob)).code == refusal.Code.NO_EXTENSION


@pytest.mark.parametrize("where", ["rules", "packets"])
def test_a_bug_stops_the_run_and_leaves_the_game_as_it_was(table, monkeypatch, where):
    """A bug while applying the rules, or halfway through writing the record: the run
    stops with the bug, nothing is kept as refused, no file changes, and the same file
    is accepted once the bug is gone."""
    root, ref, players, definition = table
    gd = GameDir(root)
    bid = Bot(players["ishida"], definition, "bug").answer(gd.packet(1, "ishida").read_text(), "")
    before = _snapshot(root)
    public = gd.public_state.read_text()

    def broken(*args, **kwargs):
        raise ValueError("list.remove(x): x not in list")

    if where == "rules":
        monkeypatch.setattr(engine, "apply", broken)
        from sekigahara_pbem.referee import steps

        monkeypatch.setattr(steps, "apply", broken)
    else:
        calls = iter(range(10))
        real = packets.build

        def second_fails(*args, **kwargs):  # the first packet is built, the second breaks
            if next(calls) == 1:
                broken()
            return real(*args, **kwargs)

        monkeypatch.setattr(packets, "build", second_fails)
    with pytest.raises(ValueError, match="x not in list"):
        referee.adjudicate(root, ref, [("bid.txt", bid.encode())], NOW)
    monkeypatch.undo()
    assert _snapshot(root) == before
    assert gd.public_state.read_text() == public
    assert not (root / "rejected").exists()
    assert _send(root, ref, bid).accepted
    assert checks.verify(root).records == 2
