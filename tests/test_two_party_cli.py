"""Two people playing a two-party game with the commands a person types (issue 14):
`seki game new --two-party`, `seki join`, then `seki play DIR --receive FILE` turn by turn
with numbered answers, and `seki reveal` refusing before the end."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sekigahara_pbem.cli import app

NAMES = {"ishida": "alice", "tokugawa": "bob"}
ANSWERS = ",".join(["1"] * 60)  # the first choice of every question, more than enough


class Players:
    def __init__(self, root: Path):
        self.root, self.runner = root, CliRunner()

    def seki(self, who: str, *args: str, code: int = 0) -> str:
        result = self.runner.invoke(
            app, list(args), env={"SEKI_HOME": str(self.root / who)}, catch_exceptions=False
        )
        assert result.exit_code == code, (args, result.output)
        assert "Traceback" not in result.output
        return result.output


def test_two_people_start_a_two_party_game_and_play_by_files(tmp_path):
    t = Players(tmp_path)
    for name in NAMES.values():
        (tmp_path / f"{name}.pub").write_text(t.seki(name, "keys", "new", name))
    keys = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    alice, bob = tmp_path / "alice-game", tmp_path / "bob-game"
    said = t.seki("alice", "game", "new", str(alice), "--two-party", "--key", "alice", *keys)
    assert "you play Ishida" in said and "seki join game.txt" in said
    said = t.seki("bob", "join", str(alice / "game.txt"), "--key", "bob", "--out", str(bob))
    assert "you play Tokugawa" in said and "alice" in said
    said = t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0001-tokugawa.txt")
    )  # its turn, with nothing to decide: its first record carries only its randomness
    assert "your first record carries only your randomness" in said
    said = t.seki(
        "bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0000-ishida.txt")
    )
    assert "waiting for the other side's record" in said
    dirs = {"alice": alice, "bob": bob}
    sent: dict[str, str] = {"alice": str(alice / "records/0002-ishida.txt")}
    turn, other = "bob", "alice"
    for _ in range(10):
        taking = ["-r", sent[other]] if other in sent else []
        said = t.seki(turn, "play", str(dirs[turn]), "--key", turn, *taking, "--choose", ANSWERS)
        if taking:
            assert "checked against your own engine" in said
        assert "send it to the other player" in said
        sent[turn] = str(sorted((dirs[turn] / "records").iterdir())[-1])
        turn, other = other, turn
    records = {n: sorted(p.name for p in (d / "records").iterdir()) for n, d in dirs.items()}
    assert len(records["alice"]) == 13 and records["bob"] == records["alice"][:12]
    said = t.seki(other, "play", str(dirs[other]), "--key", other, "--choose", ANSWERS)
    assert "waiting for the other side's record" in said
    said = t.seki("alice", "reveal", str(alice), "--key", "alice", code=1)
    assert "the game is not over" in said
    said = t.seki("alice", "status", str(alice), str(bob))  # from the records, with no key
    assert "two-party game" in said
    assert "13 records\n  waiting for tokugawa's record" in said
    assert "12 records\n  waiting for ishida's record" in said
    # before the reveals, what needs no secret, as a referee's archive before its reveal
    said = t.seki("alice", "verify", str(alice))
    assert said.startswith("checked 13 records of a two-party game: their signatures, chain")
    assert "note: not revealed yet: each side's records are replayed from its secret" in said


def test_a_two_party_game_with_addresses_a_deadline_and_a_resignation(tmp_path):
    t = Players(tmp_path)
    for name in NAMES.values():
        (tmp_path / f"{name}.pub").write_text(t.seki(name, "keys", "new", name))
    keys = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    mails = ("--email", "ishida=alice@example.org", "--email", "tokugawa=bob@example.org")
    alice, bob = tmp_path / "a", tmp_path / "b"
    t.seki("bob", "game", "new", str(bob), "--two-party", "--key", "bob", *keys, *mails,
           "--deadline-hours", "48")  # fmt: skip
    game = (bob / "game.txt").read_text()
    assert "deadline_hours: 48" in game and "alice@example.org" in game
    said = t.seki("alice", "game", "new", str(tmp_path / "x"), "--two-party", "--key", "alice",
                  *keys, "--email", "referee=r@example.org", code=1)  # fmt: skip
    assert "no referee" in said
    t.seki("alice", "join", str(bob / "game.txt"), "--key", "alice", "--out", str(alice))
    t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0001-tokugawa.txt")
    )  # and its first record, with its randomness only
    t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0000-ishida.txt"))
    said = t.seki("bob", "play", str(bob), "--key", "bob", "--resign", code=1)
    assert "resign in your own record" in said
    said = t.seki("bob", "play", str(bob), "--key", "bob", "-r",
                  str(alice / "records/0002-ishida.txt"), "--resign")  # fmt: skip
    assert "send it to the other player" in said
    said = t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0003-tokugawa.txt")
    )
    assert "the game is over: Ishida wins (resignation; rule 2)" in said  # as status says it
    assert "reveal your secret" in said
    t.seki("bob", "reveal", str(bob), "--key", "bob")
    said = t.seki("bob", "play", str(bob), "--key", "bob")
    assert "waiting for the other side's reveal" in said  # alice's deadline has not passed
    said = t.seki("bob", "play", str(bob), "--key", "bob", "--claim-forfeit", code=1)
    assert "not past the deadline" in said
    t.seki("alice", "reveal", str(alice), "--key", "alice")
    said = t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "reveals/ishida.txt"))
    assert "both secrets are here" in said
    assert "verified a two-party game" in t.seki("bob", "verify", str(bob))


def test_a_takeback_asked_and_agreed_from_the_commands(tmp_path):
    t = Players(tmp_path)
    for name in NAMES.values():
        (tmp_path / f"{name}.pub").write_text(t.seki(name, "keys", "new", name))
    keys = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    alice, bob = tmp_path / "a", tmp_path / "b"
    t.seki("alice", "game", "new", str(alice), "--two-party", "--key", "alice", *keys)
    t.seki("bob", "join", str(alice / "game.txt"), "--key", "bob", "--out", str(bob))
    said = t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0001-tokugawa.txt")
    )
    assert "0002-ishida.txt: send it to the other player" in said  # its randomness only
    t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0000-ishida.txt"))
    t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0002-ishida.txt"))
    said = t.seki("bob", "play", str(bob), "--key", "bob", "--takeback", code=1)
    assert "only your last record" in said
    t.seki("bob", "play", str(bob), "--key", "bob", "--choose", ANSWERS)
    t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0003-tokugawa.txt")
    )
    page = tmp_path / "page.html"
    t.seki("alice", "play", str(alice), "--key", "alice", "--choose", ANSWERS, "--html", str(page))
    assert "<svg" in page.read_text()  # the report with the map, from alice's own copy
    said = t.seki("alice", "play", str(alice), "--key", "alice", "--takeback")
    assert "0005-ishida.txt: send it to the other player" in said
    for path in ("0004-ishida.txt", "0005-ishida.txt"):
        t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records" / path))
    # the takeback asked, as a referee's game's status tells one (it said only whose record)
    said = t.seki("bob", "status", str(bob))
    assert (
        "ishida asks to take back its last move (record 4): tokugawa agrees (--agree-takeback) "
        "or plays on"
    ) in said
    facts = json.loads(t.seki("bob", "status", str(bob), "--json"))["games"][0]
    assert facts["takebacks"] == [{"side": "ishida", "record": 4}]
    said = t.seki("bob", "play", str(bob), "--key", "bob", "--agree-takeback")
    assert "0006-tokugawa.txt: send it to the other player" in said
    t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0006-tokugawa.txt")
    )
    said = t.seki("alice", "play", str(alice), "--key", "alice", "--choose", ANSWERS)
    assert "0007-ishida.txt: send it to the other player" in said


def test_a_two_party_turn_in_a_real_terminal(tmp_path):
    """The bid answered with one key, the record shown, then stopped with q (nothing
    written), and again signed with Enter."""
    import os
    import sys

    import pexpect

    t = Players(tmp_path)
    for name in NAMES.values():
        (tmp_path / f"{name}.pub").write_text(t.seki(name, "keys", "new", name))
    keys = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    alice, bob = tmp_path / "a", tmp_path / "b"
    t.seki("alice", "game", "new", str(alice), "--two-party", "--key", "alice", *keys)
    t.seki("bob", "join", str(alice / "game.txt"), "--key", "bob", "--out", str(bob))
    t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0001-tokugawa.txt")
    )
    t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0000-ishida.txt"))
    t.seki("bob", "play", str(bob), "--key", "bob", "-r", str(alice / "records/0002-ishida.txt"),
           "--choose", ANSWERS)  # fmt: skip
    t.seki(
        "alice", "play", str(alice), "--key", "alice", "-r", str(bob / "records/0003-tokugawa.txt")
    )
    env = {**os.environ, "SEKI_HOME": str(tmp_path / "alice"), "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1"}  # fmt: skip

    def spawn() -> pexpect.spawn:
        return pexpect.spawn(
            sys.executable, ["-m", "sekigahara_pbem", "play", str(alice), "--key", "alice"],
            env=env, encoding="utf-8", timeout=60, dimensions=(50, 100),
        )  # fmt: skip

    child = spawn()
    child.expect("YOUR DECISION: bid")
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("2")
    child.expect("Your record:")
    child.expect("Sign it\\?")
    child.send("q\r")
    child.expect("stopped: nothing written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 4  # stopped by the player (refusal.ExitStatus)
    assert len(list((alice / "records").iterdir())) == 4
    child = spawn()
    child.expect(r"\(a number; u undo, q stop\)")
    child.send("3")
    child.expect("Sign it\\?")
    child.send("\r")
    child.expect("wrote .*0004-ishida.txt: send it to the other player")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
