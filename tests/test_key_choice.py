"""A command run without --key (issue 37): it was an internal error on every command that
takes one (Click 8.3+ reads `required=True, default=None` as a default: exit 70). Now the
key is chosen as ssh chooses one: `key = "NAME"` in config.toml in the key directory, else
the directory's only key; otherwise a one-line usage error (exit 2) that names the keys
there, or says how to make one. Through the real `seki`, in real key directories made
with `seki keys new`, in a real game (cligame)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cligame
import pexpect
import pytest

from sekigahara_pbem.refusal import ExitStatus

SEKI = Path(sys.executable).parent / "seki"
PACKET = cligame.PACKET

# every command that takes --key, with the files it needs from the game (grep key_option)
COMMANDS = [
    ("view", PACKET),
    ("join", "g/game.txt"),
    ("turn", "new", PACKET),
    ("turn", "check", "bid.yaml", "--packet", PACKET),
    ("turn", "sign", "bid.yaml", "--packet", PACKET),
    ("turn", "resign", PACKET),
    ("turn", "extension", PACKET),
    ("takeback", "request", PACKET),
    ("takeback", "answer", "bid.yaml", "--accept"),
    ("play", PACKET, "--choose", "1"),
    ("bot", "turn", PACKET),
    ("bot", "run"),
    ("game", "new", "g2", "--two-party", "--ishida", "alice.pub", "--tokugawa", "bob.pub"),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """Game g set up (cligame.started): alice's key directory holds her key alone."""
    root = tmp_path_factory.mktemp("table")
    cligame.started(root)
    (root / "bid.yaml").write_text(
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\n"
        "actions:\n  - {type: bid, card: none}\n"
    )
    return root


def run(root: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"SEKI_HOME": str(home), "LANG": "C", "PATH": "/usr/bin:/bin"}
    return subprocess.run([str(SEKI), *args], capture_output=True, text=True, env=env,
                          cwd=root, stdin=subprocess.DEVNULL, timeout=120)  # fmt: skip


def refused(done: subprocess.CompletedProcess) -> str:
    """The one line a usage error says (exit 2), no traceback, nothing on stdout."""
    assert done.returncode == ExitStatus.USAGE, (done.returncode, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("seki: "), done.stderr
    assert done.stdout == ""
    return done.stderr


def home_of(table: Path, tmp_path: Path, *more: str) -> Path:
    """A copy of alice's key directory (her key, the game she joined), with keys `more`."""
    home = tmp_path / "home"
    shutil.copytree(table / "alice", home)
    for name in more:
        assert run(table, home, "keys", "new", name).returncode == 0
    return home


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_no_key_anywhere_is_refused_saying_how_to_make_one(table, tmp_path, args):
    home = home_of(table, tmp_path)
    (home / "alice.identity").unlink()  # the game she joined is there, her key is not
    said = refused(run(table, home, *args))
    assert said == f"seki: no --key given, and no key in {home}: make one with: " \
                   "seki keys new NAME\n"  # fmt: skip


def _play_at_a_terminal(table: Path, home: Path) -> pexpect.spawn:
    env = {**os.environ, "SEKI_HOME": str(home), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1",
           "LANG": "C"}  # fmt: skip
    return pexpect.spawn(str(SEKI), ["play", PACKET], cwd=str(table), env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 100))  # fmt: skip


def test_play_at_a_terminal_without_a_key_is_refused(table, tmp_path):
    child = _play_at_a_terminal(table, tmp_path)
    child.expect("no --key given, and no key in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == ExitStatus.USAGE


def test_play_at_a_terminal_uses_the_only_key(table, tmp_path):
    child = _play_at_a_terminal(table, home_of(table, tmp_path))
    child.expect("YOUR DECISION: bid")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == ExitStatus.STOPPED


def test_the_only_key_is_used(table, tmp_path):
    home = home_of(table, tmp_path)
    shown = run(table, home, "view", PACKET)
    assert shown.returncode == 0 and "YOUR DECISION: bid" in shown.stdout, shown.stderr
    made = run(table, home, "turn", "new", PACKET, "--out", str(tmp_path / "t.yaml"))
    assert made.returncode == 0, made.stderr
    assert "side: ishida" in (tmp_path / "t.yaml").read_text()


def test_two_keys_are_refused_naming_both(table, tmp_path):
    home = home_of(table, tmp_path, "carol")
    for args in COMMANDS[:3]:
        said = refused(run(table, home, *args))
        assert f"{home} holds alice, carol: give --key NAME" in said
        assert f'key = "NAME" in {home / "config.toml"}' in said


def test_config_toml_names_the_key(table, tmp_path):
    home = home_of(table, tmp_path, "carol")
    (home / "config.toml").write_text('lang = "en"\nkey = "alice"\n')
    shown = run(table, home, "view", PACKET)
    assert shown.returncode == 0 and "YOUR DECISION: bid" in shown.stdout, shown.stderr
    (home / "config.toml").write_text('key = "carol"\n')  # carol plays no side of g
    said = run(table, home, "view", PACKET).stderr
    assert said.endswith("this packet is for ishida, not for your key\n"), said


def test_an_unknown_key_in_config_toml_is_refused(table, tmp_path):
    """Even beside one key: the setting is a mistake to mend, not to pass over."""
    home = home_of(table, tmp_path)
    (home / "config.toml").write_text('key = "dave"\n')
    said = refused(run(table, home, "view", PACKET))
    assert said == (f"seki: {home / 'config.toml'}: key = 'dave': no such key in {home} "
                    "(keys there: alice)\n")  # fmt: skip
    (home / "config.toml").write_text("key = 3\n")
    assert "key = 3: no such key" in refused(run(table, home, "view", PACKET))


def test_a_given_key_comes_first(table, tmp_path):
    home = home_of(table, tmp_path, "carol")
    (home / "config.toml").write_text('key = "dave"\n')
    shown = run(table, home, "view", PACKET, "--key", "alice")
    assert shown.returncode == 0 and "YOUR DECISION: bid" in shown.stdout, shown.stderr


def test_a_referee_with_one_key_not_named_referee_makes_a_game(table, tmp_path):
    """`seki game new` took a key named "referee" when none was given, or failed: now a
    key named so still comes first, else config.toml's, else the only one (here ref)."""
    made = run(table, table / "ref", "game", "new", str(tmp_path / "g3"),
               "--ishida", "alice.pub", "--tokugawa", "bob.pub")  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "referee: seki1:ref:" in (tmp_path / "g3" / "game.txt").read_text()
