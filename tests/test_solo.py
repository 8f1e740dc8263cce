"""`seki solo`: a game against the computer in one command (issue 30): the referee and the
computer run in process on real files, the player answers the same guided questions as in
`seki play`, stopping keeps the game, the same command resumes it, and a finished game is
revealed and verified."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys

import pexpect
from click.testing import CliRunner
from test_cli_exit_status import _as_at_a_terminal

from sekigahara_pbem import cli
from sekigahara_pbem.bot import HARD_BUDGET, LEVELS
from sekigahara_pbem.commands import solo as solo_command
from sekigahara_pbem.play import console
from sekigahara_pbem.referee.verify import verify

# Answers that finish the player's next turn whatever the computer did before it: the
# first choice twice, then the marked answer (`-`, Enter) to each question after them.
A_TURN = "1,1" + ",-" * 12


def solo(root, *args):
    with contextlib.chdir(root):
        return CliRunner().invoke(cli.app, ["solo", *args], env={"SEKI_HOME": str(root / "home")})


def test_solo_stops_keeping_the_game_and_resumes_it(tmp_path):
    first = solo(tmp_path, "g", "--choose", "1")
    assert first.exit_code == 4, first.output
    assert "new game in g: you play Ishida" in first.output
    assert "seki solo g resumes it" in first.output
    records = len(list((tmp_path / "g/game/records").iterdir()))
    again = solo(tmp_path, "g", "--choose", A_TURN)
    assert "resuming g: you play Ishida" in again.output
    assert len(list((tmp_path / "g/game/records").iterdir())) > records  # it went on
    other = solo(tmp_path, "g", "--side", "tokugawa", "--choose", "1")
    assert other.exit_code == 1 and "this solo game is played as ishida" in other.output
    assert not (tmp_path / "home").exists()  # nothing of a solo game in the player's keys


def test_the_resume_hint_is_the_command_to_type(tmp_path):
    """Issue 37: the hint read "seki solo solo resumes it" and dropped --web. It is the
    command as the player types it to go on: the folder only when it is not the default,
    the options given (how to answer, the computer, the language), not a spent --choose
    script; typed as said, it resumes the game."""
    first = solo(tmp_path, "--web", "--bot", "random", "--lang", "en", "--choose", "1")
    assert first.exit_code == 4, first.output
    hint = "seki solo --bot random --web --lang en"
    assert f"the game is kept: {hint} resumes it" in first.output, first.output
    again = solo(tmp_path, *hint.split()[2:], "--choose", "1")
    assert "resuming solo: you play Ishida" in again.output
    named = solo(tmp_path, "my games/one", "--terminal", "--choose", "1")
    assert "the game is kept: seki solo 'my games/one' --terminal resumes it" in named.output


def test_the_commands_that_read_a_game_find_it_in_a_solo_folder(tmp_path):
    """Issue 37: `seki verify solo` said "not a game directory": the folder holds the game
    in solo/game. verify, status and report read it there; a folder that holds games but
    is none is refused naming them."""
    assert solo(tmp_path, "--choose", "1").exit_code == 4
    with contextlib.chdir(tmp_path):
        for args in (["verify", "solo"], ["status", "solo"], ["report", "solo"]):
            done = CliRunner().invoke(cli.app, args)
            assert done.exit_code == 0, (args, done.output)
        assert "verified" in CliRunner().invoke(cli.app, ["verify", "solo"]).output
        (tmp_path / "games").mkdir()
        (tmp_path / "solo" / "game").rename(tmp_path / "games" / "g1")
        refused = CliRunner().invoke(cli.app, ["status", "games"])
    assert refused.exit_code == 1
    assert "games is not a game directory (no game.txt); give one in it: games/g1" in (
        refused.output
    )


def test_a_terminal_that_answers_no_cursor_position_request_gets_no_warning(tmp_path):
    """Issue 37: at a pseudo-terminal that does not answer cursor position requests,
    prompt_toolkit printed "WARNING: your terminal doesn't support cursor position
    requests (CPR)" two seconds into a question. seki asks no such report (the request
    is ESC [6n), so no terminal can leave one unanswered: the real `seki solo` at a real
    pseudo-terminal, without the PROMPT_TOOLKIT_NO_CPR the other tests set."""
    env = {k: v for k, v in os.environ.items() if k != "PROMPT_TOOLKIT_NO_CPR"}
    child = pexpect.spawn(sys.executable, ["-m", "sekigahara_pbem", "solo"], cwd=str(tmp_path),
                          env={**env, "SEKI_HOME": str(tmp_path / "home"), "TERM": "xterm"},
                          encoding="utf-8", timeout=60, dimensions=(50, 100))  # fmt: skip
    child.logfile_read = seen = io.StringIO()
    child.expect(r"u undo, q stop\)")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 4, seen.getvalue()  # stopped, the game kept
    assert "\x1b[6n" not in seen.getvalue() and "cursor position" not in seen.getvalue()


def test_ctrl_c_at_a_question_keeps_the_game_and_says_how_to_resume(tmp_path):
    """Ctrl-C at a question is an interruption (exit 130, the table's), but the game is
    kept as after `q`, and the player is told the command that resumes it (since Ctrl-C
    exits 130 rather than 4, the hint was no longer said)."""
    env = {**os.environ, "SEKI_HOME": str(tmp_path / "home"), "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1", "LANG": "C"}  # fmt: skip
    child = pexpect.spawn(sys.executable, ["-m", "sekigahara_pbem", "solo", "--terminal"],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=60,
                          dimensions=(50, 100), preexec_fn=_as_at_a_terminal)  # fmt: skip
    child.expect(r"u undo, q stop\)")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    assert "the game is kept: seki solo --terminal resumes it" in child.before
    assert "seki: interrupted" in child.before
    again = solo(tmp_path, "--terminal", "--choose", "1")
    assert "resuming solo: you play Ishida" in again.output


def random_asker(seed: int) -> console.Asker:
    """A player who answers every question with a legal choice at random, and signs."""
    chooser = random.Random(seed)

    def ask(prompt: str, question) -> str:
        if question is console.CONFIRM:
            return "1"
        shown = console.numbers(question)  # as the terminal shows them (a stack keeps its own)
        if question.pick == "one":
            return str(chooser.choice(shown))
        if isinstance(question.pick, int):
            return " ".join(str(i) for i in chooser.sample(shown, question.pick))
        if question.pick == "any" and chooser.random() < 0.5:
            return ""  # the default, or none
        limit = min(len(shown), question.limit or len(shown))
        return " ".join(str(i) for i in chooser.sample(shown, chooser.randint(1, limit)))

    return ask


def test_a_whole_solo_game_is_played_to_the_end_and_verified(tmp_path, monkeypatch):
    monkeypatch.setattr(console, "terminal", lambda: random_asker(3))
    done = solo(tmp_path, "g", "--side", "tokugawa")
    assert done.exit_code == 0, done.output[-3000:]
    assert "is over" in done.output and "verified" in done.output
    assert verify(tmp_path / "g/game").result is not None
    # the next decision of the same step (a battle's deployments) is told briefly: what
    # happened, the combat, the hand (issue 41: the whole report again each time buried
    # "Since your last turn"); the first of a step has the whole report
    assert "The situation and the map are as in the last report" in done.output
    assert done.output.count("The situation\n---") > 10
    # the last report, with the move that ended the game, comes before the closing words
    # (issue 41: a game the computer ended went straight to them)
    last = done.output.rindex("Nothing is asked of you now. Waiting for: nobody, the game is over")
    assert done.output.rindex("GAME OVER: ") < last < done.output.index("is over.")
    # the closing words are a solo game's (issue 37: no mail, nothing "attached"): where
    # the secrets were written, and the command that checks the game, which does
    assert "attached" not in done.output
    assert "published in g/game/reveal.txt" in " ".join(done.output.split())
    assert "\n  seki verify g\n" in done.output
    with contextlib.chdir(tmp_path):
        checked = CliRunner().invoke(cli.app, ["verify", "g"])
    assert checked.exit_code == 0 and "result:" in checked.output, checked.output


def _computer(root, directory: str) -> tuple[str, float]:
    settings = json.loads((root / directory / "solo.json").read_text(encoding="utf-8"))
    return settings["bot"], settings["budget"]


def test_a_level_chooses_the_computer_player_and_bot_may_still_name_one(tmp_path):
    """--level names a player and its budget (bot.LEVELS: normal by default); --bot
    names a kind of player itself, and giving both is a usage error, nothing made."""
    chosen = {
        "default": ((), ("heuristic", 1.0)),
        "easy": (("--level", "easy"), ("simple", 1.0)),
        "hard": (("--level", "hard"), ("search", HARD_BUDGET)),
        "hard-budget": (("--level", "hard", "--budget", "0.1"), ("search", 0.1)),
        "bot": (("--bot", "random"), ("random", 1.0)),
    }
    for directory, (args, computer) in chosen.items():
        result = solo(tmp_path, directory, *args, "--choose", "1")
        assert result.exit_code == 4, result.output
        assert _computer(tmp_path, directory) == computer
    both = solo(tmp_path, "both", "--level", "easy", "--bot", "search", "--choose", "1")
    assert both.exit_code == 2
    assert "--level and --bot both choose the computer player: give one" in both.output
    assert not (tmp_path / "both").exists()
    unknown = solo(tmp_path, "unknown", "--level", "grandmaster", "--choose", "1")
    assert unknown.exit_code == 2 and not (tmp_path / "unknown").exists()
    assert tuple(LEVELS) == solo_command.LEVELS  # the option offers every level there is


def test_a_battle_plan_answers_the_players_battles(tmp_path, monkeypatch):
    """`seki solo --plan` (issue 41: a one-block raid took two or three turns of the
    player's, each signed): the plan's questions come before the player's first turn and
    not again while a plan is on file; its standing orders (here the last offered of
    each, never `ask`) then answer every deployment of the player's, so none is asked,
    and the game is played to its end and verified."""
    chooser = random_asker(3)
    asked: list[str] = []

    def ask(prompt: str, question) -> str:
        if question is console.CONFIRM:
            return "1"
        asked.append(question.key)
        if question.key.startswith("plan_"):
            return str(console.numbers(question)[-1])
        return chooser(prompt, question)

    monkeypatch.setattr(console, "terminal", lambda: ask)
    done = solo(tmp_path, "g", "--side", "tokugawa", "--plan")
    assert done.exit_code == 0, done.output[-3000:]
    assert verify(tmp_path / "g/game").result is not None
    plans = [k for k in asked if k.startswith("plan_")]
    assert plans and plans == list(dict.fromkeys(plans))  # each asked once
    assert asked[: len(plans)] == plans  # first of all
    assert "deploy" not in asked and "deploy_card" not in asked
    assert ", Tokugawa deploys " in " ".join(done.output.split())  # its plan deployed for it
