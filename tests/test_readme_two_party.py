"""The README's two-party commands, run as written (issue 31): parsed out of README.md, each
run by the real `seki` in the folder of the player whose key it names, alice's or bob's,
each with a key directory of its own. What the snippet says to send, the test "mails":
a file a command names that is not in its player's folder is copied from the other's. The
game starts, and the one command that is early (`seki reveal`, "at the end") is a refusal
that says so, not a word of tampering."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"
SEKI = Path(sys.executable).with_name("seki.exe" if os.name == "nt" else "seki")


def _snippet() -> list[str]:
    """The commands of the code block under "Two players, no referee", comments cut."""
    section = README.read_text(encoding="utf-8").split("## Two players, no referee")[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)
    lines = [line.split("#")[0].strip() for line in block.splitlines()]
    return [line for line in lines if line.startswith("seki ")]


def _seki(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SEKI_HOME": str(folder.parent / f"{folder.name}-keys")}
    return subprocess.run([str(SEKI), *args], cwd=folder, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)  # fmt: skip


def _mail(args: list[str], to: Path, sender: Path) -> None:
    """Each file a command names that its player does not have, copied from the other
    player's folder, found there by its name (as a mail client saves an attachment)."""
    for arg in args:
        if "." in arg and not arg.startswith("-") and not (to / arg).exists():
            found = [p for p in sender.rglob(Path(arg).name) if p.is_file()]
            if found:
                shutil.copy(found[0], to / Path(arg).name)


def test_the_readme_two_party_commands_work_as_written(tmp_path):
    folders = {name: tmp_path / name for name in ("alice", "bob")}
    for name, folder in folders.items():
        folder.mkdir()
        made = _seki(folder, "keys", "new", name)
        assert made.returncode == 0, made.stderr
        (folders["alice"] / f"{name}.pub").write_text(made.stdout)  # bob mails alice his line
    commands = _snippet()
    assert [c.split()[1] for c in commands] == ["game", "join", "play", "play", "reveal"]
    for command in commands:
        args = shlex.split(command)[1:]
        player = args[args.index("--key") + 1]
        other = next(n for n in folders if n != player)
        _mail(args, folders[player], folders[other])
        done = _seki(folders[player], *args)
        if args[0] == "reveal":  # "at the end": the game has just begun
            assert done.returncode == 1
            assert "the game is not over" in done.stderr, done.stderr
        else:
            assert done.returncode == 0, f"{command}: {done.stderr}"
    alice, bob = folders["alice"] / "g1" / "records", folders["bob"] / "g1-tokugawa" / "records"
    assert sorted(p.name for p in alice.iterdir()) == [
        "0000-ishida.txt", "0001-tokugawa.txt", "0002-ishida.txt",
    ]  # fmt: skip
    assert sorted(p.name for p in bob.iterdir()) == ["0000-ishida.txt", "0001-tokugawa.txt"]
    # bob's next step: alice's record, taken in and checked by his own engine
    shutil.copy(alice / "0002-ishida.txt", folders["bob"])
    taken = _seki(folders["bob"], "play", "g1-tokugawa", "--key", "bob", "-r", "0002-ishida.txt")
    assert "checked against your own engine" in taken.stderr, taken.stdout


def test_a_record_before_the_other_join_says_which_file_comes_first(tmp_path):
    """The mistake the README's first snippet led to: bob takes alice's record 2 without
    her join. It is the order of the files, and the refusal says so, not that alice's
    record is wrong."""
    folders = {name: tmp_path / name for name in ("alice", "bob")}
    for name, folder in folders.items():
        folder.mkdir()
        (folders["alice"] / f"{name}.pub").write_text(_seki(folder, "keys", "new", name).stdout)
    alice, bob = folders["alice"], folders["bob"]
    assert _seki(alice, "game", "new", "g1", "--two-party", "--key", "alice", "--ishida",
                 "alice.pub", "--tokugawa", "bob.pub").returncode == 0  # fmt: skip
    shutil.copy(alice / "g1" / "game.txt", bob)
    assert _seki(bob, "join", "game.txt", "--key", "bob").returncode == 0
    shutil.copy(bob / "g1-tokugawa" / "records" / "0001-tokugawa.txt", alice)
    assert _seki(alice, "play", "g1", "--key", "alice", "-r", "0001-tokugawa.txt").returncode == 0
    shutil.copy(alice / "g1" / "records" / "0002-ishida.txt", bob)
    early = _seki(bob, "play", "g1-tokugawa", "--key", "bob", "-r", "0002-ishida.txt")
    assert early.returncode == 1
    assert "take in 0000-ishida.txt first" in early.stderr, early.stderr
    assert "seki play g1-tokugawa --receive 0000-ishida.txt" in early.stderr
