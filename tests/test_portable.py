"""Players use Windows and macOS too (issue 13): every player command starts and works
with the POSIX-only modules made unimportable (`fcntl`, `pwd`, `grp`, `termios`,
`resource`), as on Windows. Each runs as a real process whose `sitecustomize` blocks them;
the test first proves the block works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BLOCKED = ("fcntl", "pwd", "grp", "termios", "resource")


def _env(tmp_path: Path, home: Path) -> dict:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(
        "import sys\n"
        f"for name in {BLOCKED!r}:\n"
        "    sys.modules[name] = None  # import raises ImportError, as on Windows\n"
    )
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "SEKI_HOME": str(home)}


def seki(tmp_path: Path, who: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args], cwd=tmp_path,
        env=_env(tmp_path, tmp_path / who), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, (args, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stdout + done.stderr  # the product, and what was written (stderr)


def test_the_block_works(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", "import fcntl"], env=_env(tmp_path, tmp_path), capture_output=True
    )
    assert done.returncode != 0 and b"import of fcntl halted" in done.stderr


def test_player_commands_run_without_posix_only_modules(tmp_path):
    """keys, join, view (with its HTML page), play, turn new/check/sign, turn resign; the
    referee's commands run normally beside them."""
    referee = {**os.environ, "SEKI_HOME": str(tmp_path / "ref")}

    def ref(*args: str) -> None:
        done = subprocess.run([sys.executable, "-m", "sekigahara_pbem", *args], cwd=tmp_path,
                              env=referee, capture_output=True, text=True, timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr

    ref("keys", "new", "ref")
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(seki(tmp_path, name, "keys", "new", name))
        assert "fingerprint" in seki(tmp_path, name, "keys", "show").lower()
    ref("game", "new", "g", "--key", "ref", "--ishida", "alice.pub", "--tokugawa", "bob.pub")
    seki(tmp_path, "alice", "join", "g/game.txt", "--key", "alice", "--out", "ja.txt")
    seki(tmp_path, "bob", "join", "g/game.txt", "--key", "bob", "--out", "jb.txt")
    ref("adjudicate", "g", "ja.txt", "jb.txt", "--key", "ref")
    seki(tmp_path, "alice", "join", "jb.txt", "--key", "alice", "--out", "sa.txt")
    seki(tmp_path, "bob", "join", "ja.txt", "--key", "bob", "--out", "sb.txt")
    ref("adjudicate", "g", "sa.txt", "sb.txt", "--key", "ref")
    packet = "g/packets/000001-ishida.txt"
    assert "YOUR DECISION" in seki(tmp_path, "alice", "view", packet, "--key", "alice",
                                   "--html", "page.html")  # fmt: skip
    seki(tmp_path, "alice", "turn", "new", packet, "--key", "alice", "--out", "t.yaml")
    template = (tmp_path / "t.yaml").read_text()
    bid = next(line for line in template.splitlines() if "type: bid" in line)
    (tmp_path / "t.yaml").write_text(template + "  - " + bid.split("- ", 1)[1] + "\n")
    seki(tmp_path, "alice", "turn", "check", "t.yaml", "--packet", packet, "--key", "alice")
    seki(tmp_path, "alice", "turn", "sign", "t.yaml", "--packet", packet, "--key", "alice")
    out = seki(tmp_path, "bob", "play", "--from", "g/packets", "--key", "bob", "--choose", "2")
    assert "wrote turn-g-1-tokugawa.signed.txt" in out
    seki(tmp_path, "bob", "turn", "resign", "g/packets/000001-tokugawa.txt", "--key", "bob")
    ref("adjudicate", "g", "t.signed.txt", "turn-g-1-tokugawa.signed.txt", "--key", "ref")


def test_a_two_party_game_runs_without_posix_only_modules(tmp_path):
    """game new --two-party, join, play (taking a record, answering, the page), reveal
    refused before the end: a two-party game needs no POSIX-only module on either side."""
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(seki(tmp_path, name, "keys", "new", name))
    keys = ("--ishida", "alice.pub", "--tokugawa", "bob.pub")
    seki(tmp_path, "alice", "game", "new", "a", "--two-party", "--key", "alice", *keys)
    seki(tmp_path, "bob", "join", "a/game.txt", "--key", "bob", "--out", "b")
    said = seki(tmp_path, "alice", "play", "a", "--key", "alice", "-r",
                "b/records/0001-tokugawa.txt")  # fmt: skip
    assert "0002-ishida.txt: send it to the other player" in said  # its randomness only
    said = seki(tmp_path, "bob", "play", "b", "--key", "bob", "-r", "a/records/0000-ishida.txt",
                "-r", "a/records/0002-ishida.txt", "--choose", "1")  # fmt: skip
    assert "0003-tokugawa.txt: send it to the other player" in said
    said = seki(tmp_path, "alice", "play", "a", "--key", "alice", "-r",
                "b/records/0003-tokugawa.txt", "--choose", "1", "--html", "p.html")  # fmt: skip
    assert "0004-ishida.txt: send it to the other player" in said
    assert (tmp_path / "p.html").read_text().count("<svg") == 1


def test_verify_runs_without_posix_only_modules(demo, tmp_path):
    """An archivist's `seki verify` of a whole game: its second process (for the packets
    of a long archive, referee/read_ahead.py) starts without them too."""
    root, _ = demo
    out = seki(tmp_path, "archivist", "verify", str(root / "game"))
    assert out.startswith("verified ") and " packets" in out
