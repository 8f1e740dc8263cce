"""A bug is a bug (issue 29): an exception seki does not raise on purpose reaches the top
as an internal error, exit 70, in every command; never as a user's mistake (exit 1), a
refused file, a failed verification, or an accusation of the referee.

Each case injects a plain `ValueError` (before issue 29, the class every user error
belonged to, so the likeliest to be mistaken for one) into a function on the command's
own path, runs the command as `seki` runs (`cli.main`), and expects exit 70 and the
internal-error line. The game is made once, by the commands themselves."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from cligame import PACKET, signed_bid, started

from sekigahara_pbem import cli

BUG = "an injected bug"


def _run(monkeypatch, capsys, home: Path, cwd: Path, *args: str) -> tuple[int, str]:
    monkeypatch.setenv("SEKI_HOME", str(home))
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", ["seki", *args])
    with pytest.raises(SystemExit) as done:
        cli.main()
    return done.value.code, capsys.readouterr().err


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """Keys, game g set up (records 1-2), Ishida's first packet; a bid turn file
    written and signed by Ishida, not yet adjudicated."""
    root = tmp_path_factory.mktemp("game")
    started(root)
    signed_bid(root)
    return root


P = "sekigahara_pbem."
CASES = {  # name -> (whose key directory, the command line, the function the bug is put into)
    "keys new": ("carol", "keys new carol", "crypto.keystore.write_identity"),
    "game new": ("ref", "game new h --ishida alice.pub --tokugawa bob.pub --key ref",
                 "protocol.game.create"),
    "join": ("alice", "join g/game.txt --key alice", "protocol.game.parse"),
    "turn new": ("alice", f"turn new {PACKET} --key alice --out t.yaml",
                 "protocol.packets.open_packet"),
    "turn check": ("alice", f"turn check bid.yaml --packet {PACKET} --key alice",
                   "protocol.checking.apply"),
    "turn sign": ("alice", f"turn sign bid.yaml --packet {PACKET} --key alice --out again.txt",
                  "protocol.checking.apply"),
    "adjudicate": ("ref", "adjudicate g bid.signed.txt --key ref", "referee.steps.apply"),
    "view": ("alice", f"view {PACKET} --key alice", "protocol.packets.open_packet"),
    "play": ("alice", f"play {PACKET} --key alice --choose 1", "protocol.packets.open_packet"),
    "report": ("ref", "report g", "protocol.chain.read_record"),
    "status": ("ref", "status g", "protocol.chain.read_record"),
    "takeback request": ("alice", f"takeback request {PACKET} --key alice",
                         "protocol.takebacks.request_body"),
    "reveal": ("ref", "reveal g --key ref --force", "protocol.chain.read_record"),
    "verify": ("ref", "verify g", "referee.verify.load"),
    "verify (replay)": ("ref", "verify ../demo", "referee.steps.apply"),
    "bot turn": ("alice", f"bot turn {PACKET} --key alice --out b.txt", "bot.make_player"),
    "demo": ("ref", "demo d", "referee.demo.run_demo"),
    "scenario run": ("ref", "scenario run s.yaml", "testing.scenario_runner.run_scenario"),
    "components check": ("ref", "components check", "protocol.component_files.load_components"),
    "simulate": ("ref", "simulate --games 1", "testing.invariant_fuzzer.simulate"),
    "referee run": ("ref", "referee run spool g --key ref --mail-config mail.toml --maildir md",
                    "mail.robot.run"),
    "mail fetch": ("ref", "mail fetch spool --maildir md", "mail.incoming.from_maildir"),
}  # fmt: skip
SCENARIO = Path(__file__).parent / "scenarios" / "2_1_instant_victory_by_muster_overrun.yaml"


@pytest.mark.parametrize("name", CASES)
def test_a_bug_in_any_command_is_an_internal_error(name, made, tmp_path, monkeypatch, capsys):
    who, args, target = CASES[name]
    root = tmp_path / "copy"
    shutil.copytree(made, root)
    shutil.copytree(Path(__file__).parent.parent / "games" / "demo", tmp_path / "demo")
    shutil.copy(SCENARIO, root / "s.yaml")
    (root / "md" / "new").mkdir(parents=True)
    (root / "mail.toml").write_text(
        'from = "ref@example.org"\nmaildir = "md"\n[smtp]\nhost = "127.0.0.1"\nport = 2525\n'
        'security = "none"\n'
    )
    monkeypatch.setattr(P + target, _raise)
    code, err = _run(monkeypatch, capsys, root / who, root, *args.split())
    assert code == 70, err
    assert f"internal error: ValueError: {BUG}" in err, err
    assert "does not verify" not in err and "REFUSED" not in err


def _raise(*args: object, **kwargs: object) -> None:
    raise ValueError(BUG)
