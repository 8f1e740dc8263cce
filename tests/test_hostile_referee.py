"""Referee mode against a modified client (issue 28, "Referee mode"): what a player can
sign with its own key and mail is refused at once and never costs the referee more than
reading it. Each test plays the attack through the real files and commands."""

from __future__ import annotations

import time

from test_pbem_cli import _started, ok, seki

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keystore import identity_path, read_identity

LEVELS = 9  # 9 ** 9 names once walked: gigabytes, from well under a kilobyte


def _bomb_turn() -> str:
    """A turn whose battle plan nests one list in itself through aliases: the first place
    to declare a combat at is a list of lists, which a refusal used to quote whole."""
    levels = ["&l0 [" + ", ".join(["ukita-2a"] * 9) + "]"]
    levels += [f"&l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, LEVELS)]
    return (
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\nactions:\n"
        "  - type: plan\n    plan:\n      declare: [[" + ", ".join(levels) + "]]\n"
    )


def test_an_alias_bomb_in_a_signed_turn_file_is_refused_at_once(tmp_path):
    """An 800-byte turn file signed by its player (the stock client would not write it):
    refused as not plain YAML, kept in rejected/, and the game goes on."""
    ref, alice, _ = _started(tmp_path)
    text = _bomb_turn()
    assert len(text) < 1000
    identity = read_identity(identity_path(alice, "alice"))
    (tmp_path / "bomb.txt").write_text(signing.sign(text, identity), encoding="utf-8")
    start = time.monotonic()
    done = seki(ref, "adjudicate", "g", "bomb.txt", "--key", "ref", cwd=tmp_path)
    assert time.monotonic() - start < 60
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    assert "alias" in done.stdout + done.stderr
    assert len((done.stdout + done.stderr).splitlines()) < 20
    rejected = list((tmp_path / "g" / "rejected").iterdir())
    assert rejected and all(p.stat().st_size < 20_000 for p in rejected)
    assert "awaiting" in ok(seki(ref, "status", "g", cwd=tmp_path))
