"""`seki play`: a turn in one command. Week 1 played by two players through `seki play
--choose` alone (answers picked at random among the choices offered, moves included) with
the referee's `seki adjudicate`, no file refused and no YAML written by hand; the real
program in a real pseudo-terminal answered key by key (one key per choice, undo,
confirm); the turn session's rules (where a turn stops, undo across actions); and a clear
message without a terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cligame
import pexpect
import playscript
import pytest
import yaml
from click.testing import CliRunner
from conftest import fix_seeds

from sekigahara_pbem.cli import app
from sekigahara_pbem.play.session import TurnSession

NAMES = {"ishida": "alice", "tokugawa": "bob"}
WEEK_GAMES = range(int(os.environ.get("SEKI_PLAY_GAMES", "3")))


class Table:
    """A referee and two players, each with a key directory, in-process through the CLI."""

    def __init__(self, root: Path):
        self.root, self.runner = root, CliRunner()

    def seki(self, who: str, *args: str, code: int = 0) -> str:
        result = self.runner.invoke(
            app, list(args), env={"SEKI_HOME": str(self.root / who)}, catch_exceptions=False
        )
        assert result.exit_code == code, (args, result.output)
        assert "Traceback" not in result.output
        return result.output

    def start(self) -> Path:
        self.seki("ref", "keys", "new", "ref")
        for name in NAMES.values():
            (self.root / f"{name}.pub").write_text(self.seki(name, "keys", "new", name))
        game = self.root / "g"
        keys = ("--ishida", str(self.root / "alice.pub"), "--tokugawa", str(self.root / "bob.pub"))
        self.seki("ref", "game", "new", str(game), "--key", "ref", *keys)
        joins = [str(self.root / f"join-{n}.txt") for n in NAMES.values()]
        for name, path in zip(NAMES.values(), joins, strict=True):
            self.seki(name, "join", str(game / "game.txt"), "--key", name, "--out", path)
        self.seki("ref", "adjudicate", str(game), *joins, "--key", "ref")
        seeds = [str(self.root / f"seed-{n}.txt") for n in NAMES.values()]
        for name, path, theirs in zip(NAMES.values(), seeds, joins[::-1], strict=True):
            self.seki(name, "join", theirs, "--key", name, "--out", path)
        self.seki("ref", "adjudicate", str(game), *seeds, "--key", "ref")
        return game


def _script(table, name, packet, seed, monkeypatch, plan=False) -> tuple[str, list]:
    monkeypatch.setenv("SEKI_HOME", str(table.root / name))
    pairs, actions = playscript.answers(name, packet, seed, plan)
    return playscript.script(pairs), actions


def _unsealed(table: Table, game: Path, text: str):
    """The turn a sealed turn file holds, opened as the referee opens it."""
    from sekigahara_pbem.crypto.keystore import read_identity
    from sekigahara_pbem.protocol import game as games
    from sekigahara_pbem.protocol import turns
    from sekigahara_pbem.protocol.store import GameDir

    assert turns.is_sealed(text) and "actions" not in text  # nothing in the clear
    referee = read_identity(table.root / "ref" / "ref.identity")
    definition = games.load(GameDir(game))
    secrets = games.open_secrets(GameDir(game), definition, referee)
    return turns.parse(definition, turns.unseal(definition, text, secrets.state_key, "t"), "t")


def _fixed_seeds(monkeypatch, game_seed: int) -> None:
    fix_seeds(monkeypatch, f"play-{game_seed}")


@pytest.mark.parametrize("game_seed", WEEK_GAMES)
def test_week_one_played_with_seki_play_alone(tmp_path, monkeypatch, game_seed):
    _fixed_seeds(monkeypatch, game_seed)
    table = Table(tmp_path)
    game = table.start()
    turns = moves = 0
    while True:
        state = yaml.safe_load((game / "public" / "state.yaml").read_text())
        if state["week"] > 1 or not state["pending"]:
            break
        seq = max(int(p.name[:6]) for p in (game / "records").glob("*.txt"))
        side = sorted({d["side"] for d in state["pending"]})[0]
        name = NAMES[side]
        packet = game / "packets" / f"{seq:06d}-{side}.txt"
        plan = ["--plan"] if seq <= 2 else []  # each side files a battle plan with its bid
        script, actions = _script(table, name, packet, seq, monkeypatch, plan=bool(plan))
        out = tmp_path / f"turn-{seq}.txt"
        shown = table.seki(name, "play", "--from", str(game / "packets"), "--key", name,
                           "--choose", script, "--out", str(out), *plan)  # fmt: skip
        assert "YOUR DECISION" in shown and "wrote" in shown
        assert _unsealed(table, game, out.read_text()).actions == actions
        moves += sum(a["type"] == "move" for a in actions)
        done = table.seki("ref", "adjudicate", str(game), str(out), "--key", "ref")
        assert "REFUSED" not in done and f"record {seq + 1}" in done, done
        turns += 1
        assert turns < 200
    assert turns > 4 and moves > 0
    assert not (game / "rejected").exists()
    side = sorted({d["side"] for d in state["pending"]})[0]
    name = NAMES[side]
    packets = ("--from", str(game / "packets"), "--key", name)
    seq = max(int(p.name[:6]) for p in (game / "records").glob("*.txt"))
    script, _ = _script(table, name, game / "packets" / f"{seq:06d}-{side}.txt", 0, monkeypatch)
    table.seki(name, "play", *packets, "--choose", script, "--out", str(tmp_path / "d.txt"))
    again = table.seki(
        name, "play", *packets, "--choose", "1", "--out", str(tmp_path / "x"), code=1
    )
    assert "no unanswered packet" in again  # the newest one was answered


def _spawn(home: Path, *args: str, cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "SEKI_HOME": str(home), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    return pexpect.spawn(
        sys.executable, ["-m", "sekigahara_pbem", *args], cwd=str(cwd), env=env,
        encoding="utf-8", timeout=60, dimensions=(50, 100),
    )  # fmt: skip


def test_a_bid_answered_key_by_key_in_a_real_terminal(tmp_path):
    table = Table(tmp_path)
    game = table.start()
    child = _spawn(tmp_path / "alice", "play", "--from", str(game / "packets"), "--key", "alice",
                   cwd=tmp_path)  # fmt: skip
    child.expect("YOUR DECISION: bid")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("2")  # one key: five choices, so 2 is taken at once
    child.expect("Sign it\\?")
    child.send("u\r")  # undo: the bid is asked again
    child.expect("undone")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("3")
    child.expect("Sign it\\?")
    child.send("\r")  # Enter signs
    child.expect("wrote (turn-g-1-ishida.signed.txt)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    signed = (tmp_path / "turn-g-1-ishida.signed.txt").read_text()
    assert _unsealed(table, game, signed).actions[0]["type"] == "bid"
    done = table.seki("ref", "adjudicate", str(game), str(tmp_path / "turn-g-1-ishida.signed.txt"),
                      "--key", "ref")  # fmt: skip
    assert "accepted record 2" in done


def test_stopping_writes_nothing(tmp_path):
    table = Table(tmp_path)
    game = table.start()
    child = _spawn(tmp_path / "bob", "play", str(game / "packets" / "000001-tokugawa.txt"),
                   "--key", "bob", cwd=tmp_path)  # fmt: skip
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("q\r")
    child.expect("stopped: nothing written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 4  # stopped by the player (refusal.ExitStatus)
    assert not list(tmp_path.glob("turn-*"))


def test_without_a_terminal_it_asks_for_the_answers(tmp_path):
    table = Table(tmp_path)
    game = table.start()
    out = table.seki("alice", "play", "--from", str(game / "packets"), "--key", "alice", code=2)
    assert "--choose" in out


def _answers(dialogue_factory, given=()):
    """Every sequence of answers a dialogue accepts, with the action each builds."""
    dialogue = dialogue_factory()
    try:
        question = next(dialogue)
        for value in given:
            question = dialogue.send(value)
    except StopIteration as done:
        yield list(given), done.value
        return
    for choice in question.choices:
        yield from _answers(dialogue_factory, (*given, choice.value))


def test_every_battle_plan_the_questions_build_is_valid(comp):
    from sekigahara_pbem.play.plan import plan_dialogue
    from sekigahara_pbem.rules.plans import check_plan

    built = list(_answers(plan_dialogue))
    for _, action in built:
        for side in NAMES:
            check_plan(comp, side, action["plan"])  # raises Malformed if not
    assert len(built) > 5000
    assert {"type": "plan", "plan": {}} in [a for _, a in built]  # all "ask": no standing orders


def test_a_turn_stops_where_the_side_can_no_longer_foresee(comp):
    from sekigahara_pbem.rules.cycle.setup import setup

    state, _ = setup(comp, "ab" * 16)
    session = TurnSession(state, comp, "ishida")
    assert session.question.key == "bid"
    session.answer(session.question.choices[0].value)
    assert session.question is None and len(session.actions) == 1  # sealed: the turn ends
    assert session.undo() and session.question is not None and not session.actions
    assert not TurnSession(state, comp, "ishida").undo()


def test_a_packet_named_needs_no_mail_settings(tmp_path):
    """`seki play PACKET` without --send fetches nothing and mails nothing, so it reads no
    mail settings: a settings file that is not valid TOML does not stop it. With --send
    it is refused, naming the file, before anything is asked."""
    cligame.started(tmp_path)
    (tmp_path / "alice" / "mail.toml").write_text("[smtp\n", encoding="utf-8")
    args = ("play", cligame.PACKET, "--key", "alice", "--choose", "1")
    played = cligame.seki(tmp_path, "alice", *args)
    assert played.exit_code == 0, played.output
    assert (tmp_path / "turn-g-1-ishida.signed.txt").is_file()
    sent = cligame.seki(tmp_path, "alice", *args, "--send")
    assert sent.exit_code != 0 and "not valid TOML" in sent.output, sent.output
