"""A referee's game made through the commands, in process (CliRunner): keys for a referee
and two players, game g set up (record 1), and Ishida's bid signed; a few seconds, for the
tests that need a real game directory and real key directories."""

from __future__ import annotations

import contextlib
from pathlib import Path

from click.testing import CliRunner, Result
from snapshots import copied

from sekigahara_pbem import cli

PACKET = "g/packets/000001-ishida.txt"  # Ishida's first packet: its bid


def seki(root: Path, who: str, *args: str) -> Result:
    """One command run in `root` with `who`'s key directory, as `seki` runs it."""
    with contextlib.chdir(root):
        return CliRunner().invoke(cli.app, list(args), env={"SEKI_HOME": str(root / who)})


def ok(root: Path, who: str, *args: str) -> str:
    result = seki(root, who, *args)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.stdout


def started(root: Path) -> None:
    """Keys ref, alice (Ishida) and bob (Tokugawa); game g made, joined, seeded, set up
    (made once per test process: tests/snapshots.py)."""
    copied(_start, root)


def _start(root: Path) -> None:
    ok(root, "ref", "keys", "new", "ref")
    (root / "alice.pub").write_text(ok(root, "alice", "keys", "new", "alice"))
    (root / "bob.pub").write_text(ok(root, "bob", "keys", "new", "bob"))
    ok(root, "ref", "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
       "--key", "ref")  # fmt: skip
    ok(root, "alice", "join", "g/game.txt", "--key", "alice")
    ok(root, "bob", "join", "g/game.txt", "--key", "bob")
    ok(root, "ref", "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt",
       "--key", "ref")  # fmt: skip
    ok(root, "alice", "join", "join-g-tokugawa.txt", "--key", "alice")
    ok(root, "bob", "join", "join-g-ishida.txt", "--key", "bob")
    ok(root, "ref", "adjudicate", "g", "seed-g-ishida.txt", "seed-g-tokugawa.txt",
       "--key", "ref")  # fmt: skip


def signed_bid(root: Path) -> Path:
    """Ishida's bid (the first card its packet offers), written and signed: bid.signed.txt."""
    shown = ok(root, "alice", "view", PACKET, "--key", "alice")
    card = shown.split("{type: bid, card: ")[1].split("}")[0]
    (root / "bid.yaml").write_text(
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
        f"actions:\n  - {{type: bid, card: {card}}}\n"
    )
    ok(root, "alice", "turn", "sign", "bid.yaml", "--packet", PACKET, "--key", "alice")
    return root / "bid.signed.txt"
