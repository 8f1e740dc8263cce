"""The player's and referee's commands as real processes, each person with their own key
directory: keys, game new, join, adjudicate, status, view, turn check/sign, reveal,
verify; and one-line errors for bad input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reading import hand_in
from snapshots import copied


def seki(home: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SEKI_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def _started(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Keys for a referee and two players, game g made, both joined, record 1 written
    (made once per test process: tests/snapshots.py); returns their key directories."""
    copied(_start, tmp_path)
    return tmp_path / "ref", tmp_path / "alice", tmp_path / "bob"


def _start(tmp_path: Path) -> None:
    ref, alice, bob = (tmp_path / n for n in ("ref", "alice", "bob"))
    ok(seki(ref, "keys", "new", "ref", cwd=tmp_path))
    (tmp_path / "alice.pub").write_text(ok(seki(alice, "keys", "new", "alice", cwd=tmp_path)))
    (tmp_path / "bob.pub").write_text(ok(seki(bob, "keys", "new", "bob", cwd=tmp_path)))
    ok(seki(ref, "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    ok(seki(alice, "join", "g/game.txt", "--key", "alice", cwd=tmp_path))
    ok(seki(bob, "join", "g/game.txt", "--key", "bob", cwd=tmp_path))
    ok(seki(ref, "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt", "--key", "ref",
            cwd=tmp_path))  # fmt: skip
    _send_seeds(ref, alice, bob, tmp_path)


def _send_seeds(ref: Path, alice: Path, bob: Path, tmp_path: Path) -> str:
    """Each player answers the other's join with its seed; the second one sets the game up."""
    ok(seki(alice, "join", "join-g-tokugawa.txt", "--key", "alice", cwd=tmp_path))
    ok(seki(bob, "join", "join-g-ishida.txt", "--key", "bob", cwd=tmp_path))
    return ok(seki(ref, "adjudicate", "g", "seed-g-ishida.txt", "seed-g-tokugawa.txt",
                   "--key", "ref", cwd=tmp_path))  # fmt: skip


def test_a_game_by_hand(tmp_path):
    ref, alice, bob = (tmp_path / n for n in ("ref", "alice", "bob"))
    ok(seki(ref, "keys", "new", "ref", cwd=tmp_path))
    (tmp_path / "alice.pub").write_text(ok(seki(alice, "keys", "new", "alice", cwd=tmp_path)))
    (tmp_path / "bob.pub").write_text(ok(seki(bob, "keys", "new", "bob", cwd=tmp_path)))
    ok(seki(ref, "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    ok(seki(alice, "join", "g/game.txt", "--key", "alice", cwd=tmp_path))
    ok(seki(bob, "join", "g/game.txt", "--key", "bob", cwd=tmp_path))
    out = ok(seki(ref, "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt",
                  "--key", "ref", cwd=tmp_path))  # fmt: skip
    assert "both sides are in" in out
    assert "set up" in _send_seeds(ref, alice, bob, tmp_path)
    assert "awaiting Ishida: bid" in ok(seki(ref, "status", "g", cwd=tmp_path))
    shown = ok(seki(alice, "view", "g/packets/000001-ishida.txt", "--key", "alice", cwd=tmp_path))
    assert "YOUR DECISION: bid" in shown
    card = shown.split("{type: bid, card: ")[1].split("}")[0]
    turn = tmp_path / "bid.yaml"
    turn.write_text(
        f"format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
        f"actions:\n  - {{type: bid, card: {card}}}\n"
    )
    ok(seki(alice, "turn", "check", "bid.yaml", "--packet", "g/packets/000001-ishida.txt",
            "--key", "alice", cwd=tmp_path))  # fmt: skip
    ok(seki(alice, "turn", "sign", "bid.yaml", "--packet", "g/packets/000001-ishida.txt",
            "--key", "alice", cwd=tmp_path))  # fmt: skip
    signed = (tmp_path / "bid.signed.txt").read_text()
    assert "format: seki-sealed-turn/2" in signed and card not in signed  # sealed, bid unseen
    assert "record 2" in ok(seki(ref, "adjudicate", "g", "bid.signed.txt", "--key", "ref",
                                 cwd=tmp_path))  # fmt: skip
    again = seki(ref, "adjudicate", "g", "bid.signed.txt", "--key", "ref", cwd=tmp_path)
    assert again.returncode == 1 and "REFUSED" in again.stdout
    wrong = seki(bob, "turn", "sign", "bid.yaml", "--packet", "g/packets/000002-tokugawa.txt",
                 "--key", "bob", cwd=tmp_path)  # fmt: skip
    assert wrong.returncode == 1 and "not played by bob" in wrong.stderr
    ok(seki(bob, "turn", "new", "g/packets/000002-tokugawa.txt", "--key", "bob",
            "--out", "bob.yaml", cwd=tmp_path))  # fmt: skip
    template = (tmp_path / "bob.yaml").read_text()
    first = next(x for x in template.splitlines() if x.startswith("#   - "))
    (tmp_path / "bob.yaml").write_text(template + "  " + first[4:] + "\n")
    ok(seki(bob, "turn", "check", "bob.yaml", "--packet", "g/packets/000002-tokugawa.txt",
            "--key", "bob", cwd=tmp_path))  # fmt: skip
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(template + "  - {type: bid, card: no-such-card}\n")
    refused = seki(bob, "turn", "sign", "illegal.yaml", "--packet",
                   "g/packets/000002-tokugawa.txt", "--key", "bob", cwd=tmp_path)  # fmt: skip
    assert refused.returncode == 1 and "not signed" in refused.stderr
    assert not (tmp_path / "illegal.signed.txt").exists()
    ok(seki(bob, "turn", "sign", "bob.yaml", "--packet", "g/packets/000002-tokugawa.txt",
            "--key", "bob", cwd=tmp_path))  # fmt: skip
    ok(seki(ref, "adjudicate", "g", "bob.signed.txt", "--key", "ref", cwd=tmp_path))
    ok(seki(alice, "view", "g/packets/000002-ishida.txt", "--key", "alice", cwd=tmp_path))
    bids = seki(alice, "view", "g/packets/000003-ishida.txt", "--key", "alice", cwd=tmp_path)
    ok(bids)  # the check of what it opens is said on stderr, beside the report
    assert "were committed in packet 2" in bids.stderr  # both bid cards and both sealed bids
    early = seki(ref, "reveal", "g", "--key", "ref", cwd=tmp_path)
    assert early.returncode == 1 and "not over" in early.stderr
    ok(seki(ref, "reveal", "g", "--key", "ref", "--force", cwd=tmp_path))
    assert "verified 3 records" in ok(seki(tmp_path / "anyone", "verify", "g", cwd=tmp_path))


def test_bad_input_gives_one_line_errors(tmp_path):
    home = tmp_path / "home"
    (tmp_path / "junk.txt").write_bytes(b"\x00\xff junk")
    for args in (
        ("verify", "nowhere"),
        ("status", "nowhere"),
        ("view", "junk.txt", "--key", "nobody"),
        ("adjudicate", "nowhere", "junk.txt"),
        ("join", "junk.txt", "--key", "nobody"),
        ("game", "new", "x", "--ishida", "junk.txt", "--tokugawa", "junk.txt"),
    ):
        done = seki(home, *args, cwd=tmp_path)
        assert done.returncode != 0, args
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, args
        assert len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)


@pytest.mark.parametrize("lock", ["index.lock", "seki-index.lock", "HEAD.lock"])
def test_a_stale_git_lock_left_by_a_killed_run_does_not_jam_the_game(tmp_path, lock):
    """Issue 19: git killed with seki leaves a lock in .git (the index's, seki's own
    index's while it builds a tree, HEAD's while the commit is put in place); the next run
    clears it. (The kill loop, tests/test_kill_loop.py, once left seki-index.lock or
    HEAD.lock, and every later run failed until a person deleted it.)"""
    ref, alice, bob = (tmp_path / n for n in ("ref", "alice", "bob"))
    ok(seki(ref, "keys", "new", "ref", cwd=tmp_path))
    (tmp_path / "alice.pub").write_text(ok(seki(alice, "keys", "new", "alice", cwd=tmp_path)))
    (tmp_path / "bob.pub").write_text(ok(seki(bob, "keys", "new", "bob", cwd=tmp_path)))
    ok(seki(ref, "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    ok(seki(alice, "join", "g/game.txt", "--key", "alice", cwd=tmp_path))
    ok(seki(bob, "join", "g/game.txt", "--key", "bob", cwd=tmp_path))
    (tmp_path / "g" / ".git" / lock).write_text("")  # as a killed git leaves it
    out = ok(seki(ref, "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt",
                  "--key", "ref", cwd=tmp_path))  # fmt: skip
    assert "both sides are in" in out
    assert "set up" in _send_seeds(ref, alice, bob, tmp_path)
    assert not (tmp_path / "g" / ".git" / lock).exists()


def test_one_join_per_side_three_different_keys_and_closed_key_files(tmp_path):
    """Issue 19: a second join of a side is refused (the referee cannot pick between a
    player's seeds); one key cannot play two roles; an identity file others can read is
    warned about on every command, and a key directory others can read is closed."""
    ref, alice, bob = (tmp_path / n for n in ("ref", "alice", "bob"))
    ok(seki(ref, "keys", "new", "ref", cwd=tmp_path))
    (tmp_path / "alice.pub").write_text(ok(seki(alice, "keys", "new", "alice", cwd=tmp_path)))
    (tmp_path / "bob.pub").write_text(ok(seki(bob, "keys", "new", "bob", cwd=tmp_path)))
    same = seki(ref, "game", "new", "twice", "--ishida", "alice.pub", "--tokugawa", "alice.pub",
                "--key", "ref", cwd=tmp_path)  # fmt: skip
    assert same.returncode == 1 and "three different keys" in same.stderr
    ok(seki(ref, "game", "new", "g", "--ishida", "alice.pub", "--tokugawa", "bob.pub",
            "--key", "ref", cwd=tmp_path))  # fmt: skip
    ok(seki(alice, "join", "g/game.txt", "--key", "alice", "--out", "first.txt", cwd=tmp_path))
    ok(seki(alice, "join", "g/game.txt", "--key", "alice", "--out", "second.txt", cwd=tmp_path))
    ok(seki(ref, "adjudicate", "g", "first.txt", "--key", "ref", cwd=tmp_path))
    kept = (tmp_path / "g" / "joins" / "ishida.txt").read_text()
    again = seki(ref, "adjudicate", "g", "second.txt", "--key", "ref", cwd=tmp_path)
    assert again.returncode == 1 and "already joined" in again.stdout + again.stderr
    assert (tmp_path / "g" / "joins" / "ishida.txt").read_text() == kept
    (alice / "alice.identity").chmod(0o644)
    alice.chmod(0o755)
    shown = seki(alice, "view", "g/game.txt", "--key", "alice", cwd=tmp_path)
    assert "alice.identity is readable by others" in shown.stderr
    assert alice.stat().st_mode & 0o077 == 0


def test_verify_finds_a_chain_cut_short_and_a_changed_public_state(tmp_path):
    """Issue 11: the reveal pins the last record, so records deleted after it are found;
    public/state.yaml must be the last record's public view; a game revealed before its
    end is reported as such."""
    import shutil

    ref, alice, bob = _started(tmp_path)
    ok(seki(alice, "play", "--from", "g/packets", "--key", "alice", "--choose", "1",
            "--out", "bid.txt", cwd=tmp_path))  # fmt: skip
    ok(seki(ref, "adjudicate", "g", "bid.txt", "--key", "ref", cwd=tmp_path))
    ok(seki(ref, "reveal", "g", "--key", "ref", "--force", cwd=tmp_path))
    assert "revealed before the end" in ok(seki(ref, "verify", "g", cwd=tmp_path))
    cut = tmp_path / "cut"
    shutil.copytree(tmp_path / "g", cut)
    for folder, name in (
        ("records", "000002.txt"),
        ("sealed", "000002.txt"),
        ("packets", "000002-ishida.txt"),
        ("packets", "000002-tokugawa.txt"),
    ):
        (cut / folder / name).unlink()  # fmt: skip
    shutil.copy(tmp_path / "g" / "public" / "state.yaml", cut / "public" / "state.yaml")
    done = seki(ref, "verify", "cut", cwd=tmp_path)  # exit 3: does not verify
    assert done.returncode == 3 and "records are missing" in done.stderr, done.stderr
    state = tmp_path / "g" / "public" / "state.yaml"
    shown = state.read_text()
    state.write_text(shown.replace("week: 1", "week: 2"))
    done = seki(ref, "verify", "g", cwd=tmp_path)
    assert done.returncode == 3 and "public/state.yaml" in done.stderr, done.stderr
    # the same content with a key given twice (YAML keeps the last): found by the fuzzer
    state.write_text(shown.replace("week: 1", "week: 3\nweek: 1"))
    done = seki(ref, "verify", "g", cwd=tmp_path)
    assert done.returncode == 3 and "the form the referee writes" in done.stderr, done.stderr


def test_a_battle_plan_file_is_taken_once_and_never_over_a_newer_one(tmp_path):
    """Issues 11 and 19: a file of battle plans only (taken whether or not its side is
    asked) must answer a packet newer than its side's last file, so a replay, or an older
    plan arriving late, is refused; it is recorded as a battle plan, not as the decision
    pending."""
    ref, alice, bob = _started(tmp_path)

    def plan(packet: int, answers: str, out: str) -> None:
        ok(seki(alice, "play", f"g/packets/{packet:06d}-ishida.txt", "--key", "alice", "--plan",
                "--choose", answers, "--out", out, cwd=tmp_path))  # fmt: skip

    ok(seki(alice, "play", "g/packets/000001-ishida.txt", "--key", "alice", "--choose", "1",
            "--out", "bid.txt", cwd=tmp_path))  # fmt: skip
    ok(seki(ref, "adjudicate", "g", "bid.txt", "--key", "ref", cwd=tmp_path))
    plan(2, "2,2,1,1,1,1,1,1", "old.txt")  # signed now, delivered late
    plan(2, "2,3,1,1,1,1,1,1", "p1.txt")
    out = ok(seki(ref, "adjudicate", "g", "p1.txt", "--key", "ref", cwd=tmp_path))
    assert "record 3: week 1 turn A: ishida battle plan" in out
    again = seki(ref, "adjudicate", "g", "p1.txt", "--key", "ref", cwd=tmp_path)
    assert again.returncode == 1 and "stale" in again.stdout + again.stderr
    late = seki(ref, "adjudicate", "g", "old.txt", "--key", "ref", cwd=tmp_path)
    assert late.returncode == 1 and "stale" in late.stdout + late.stderr
    plan(3, "1,1,1,1,1,1,1", "p2.txt")
    assert "record 4" in ok(seki(ref, "adjudicate", "g", "p2.txt", "--key", "ref", cwd=tmp_path))
    ok(seki(ref, "reveal", "g", "--key", "ref", "--force", cwd=tmp_path))
    ok(seki(ref, "verify", "g", cwd=tmp_path))


def test_nothing_hidden_sits_in_clear_in_the_game_directory_or_its_history(tmp_path):
    """Issue 11: after a sealed bid and a refused file that names a card of the hand, no
    file of the game directory (turns, rejected inputs, records, packets, the public state)
    nor any commit of its git history shows the bid or the hand before the bids are
    revealed; the referee (and, after the reveal, anyone) can still open them. The
    component set the directory carries (components/) lists every card of the game, as
    the printed game does: it is left out."""
    import subprocess

    ref, alice, bob = _started(tmp_path)
    shown = ok(seki(alice, "view", "g/packets/000001-ishida.txt", "--key", "alice", cwd=tmp_path))
    hand = hand_in(shown)
    (tmp_path / "t.yaml").write_text(
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
        f"actions:\n  - {{type: bid, card: {hand[0]}, note: {hand[1]}}}\n"
    )
    from sekigahara_pbem.crypto import signing
    from sekigahara_pbem.crypto.keystore import read_identity

    wrong = signing.sign((tmp_path / "t.yaml").read_text(), read_identity(alice / "alice.identity"))
    (tmp_path / "wrong.txt").write_text(wrong.replace(f"card: {hand[0]}", "card: nonsense"))
    seki(ref, "adjudicate", "g", "wrong.txt", "--key", "ref", cwd=tmp_path)  # refused
    ok(seki(alice, "play", "g/packets/000001-ishida.txt", "--key", "alice", "--choose", "1",
            "--out", "bid.txt", cwd=tmp_path))  # fmt: skip
    ok(seki(ref, "adjudicate", "g", "bid.txt", "--key", "ref", cwd=tmp_path))
    game = tmp_path / "g"
    left_out = {".git", "referee", "components"}
    files = [p for p in game.rglob("*")
             if p.is_file() and not left_out & set(p.relative_to(game).parts)]  # fmt: skip
    log = ["git", "-C", str(game), "log", "-p", "--all", "--", ".", ":(exclude)components"]
    history = subprocess.run(log, capture_output=True, text=True).stdout
    assert (game / "rejected").is_dir() and len(history) > 10_000
    for card in hand:  # as a whole id: card "mori-3" is not block "mori-3a"
        token = re.compile(rf"(?<![\w-]){re.escape(card)}(?![\w-])")
        for path in files:
            assert not token.search(path.read_text(errors="replace")), (card, path)
        assert not token.search(history), card
        assert not token.search((tmp_path / "bid.txt").read_text())  # what crossed the mail
