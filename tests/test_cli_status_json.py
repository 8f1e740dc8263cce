"""`seki status --json` (issue 31): the facts `seki status` prints, as one JSON object on
standard output, for a referee's game at each stage and for a two-party game; a directory
that is no game is an entry with its error, and the exit status is 1."""

from __future__ import annotations

import json
from pathlib import Path

from cligame import ok, seki, started

from sekigahara_pbem import words

DEMO = Path(__file__).parent.parent / "games" / "demo"
KEYS = ("--ishida", "alice.pub", "--tokugawa", "bob.pub")


def _status(root: Path, *dirs: str, code: int = 0) -> dict:
    done = seki(root, "ref", "status", *dirs, "--json", "--now", "2026-11-23T12:00:00Z")
    assert done.exit_code == code, done.output
    facts = json.loads(done.stdout)
    assert facts["now"] == "2026-11-23T12:00:00Z" and len(facts["games"]) == len(dirs)
    return facts


def test_a_referee_game_waiting_for_joins_then_for_decisions(tmp_path):
    started(tmp_path)  # keys ref, alice and bob; game g set up
    ok(tmp_path, "ref", "game", "new", "new", *KEYS, "--key", "ref")
    [fresh] = _status(tmp_path, "new")["games"]
    assert fresh["mode"] == "referee" and fresh["game"] == "new" and fresh["records"] == 0
    assert fresh["last"] is None and not fresh["over"]
    assert fresh["waiting"] == [{"side": "ishida", "for": "join"},
                                {"side": "tokugawa", "for": "join"}]  # fmt: skip
    [playing] = _status(tmp_path, "g")["games"]
    assert playing["records"] == playing["last"]["seq"] >= 1 and not playing["over"]
    text = seki(tmp_path, "ref", "status", "g", "--now", "2026-11-23T12:00:00Z").stdout
    assert playing["last"]["label"] in text
    assert {w["side"] for w in playing["waiting"]} == {"ishida", "tokugawa"}
    for waiting in playing["waiting"]:
        assert waiting["for"] == "decision" and waiting["due"] is None
        assert f"asked in packet {waiting['asked_in']}, {waiting['asked_at']}" in text


def test_a_game_over_says_its_result(tmp_path):
    [over] = _status(tmp_path, str(DEMO))["games"]
    verified = json.loads(seki(tmp_path, "ref", "verify", str(DEMO), "--json").stdout)
    assert over["over"] and over["waiting"] == [] and over["takebacks"] == []
    assert over["records"] == verified["records"]
    assert over["result"] == verified["result"]  # the whole result: rule, score, reason
    text = seki(tmp_path, "ref", "status", str(DEMO)).stdout
    assert "  the game is over: " + words.outcome(verified["result"]) + "\n" in text


def test_a_two_party_game_and_a_directory_that_is_no_game(tmp_path):
    for name in ("alice", "bob"):
        (tmp_path / f"{name}.pub").write_text(ok(tmp_path, name, "keys", "new", name))
    ok(tmp_path, "alice", "game", "new", "a", "--two-party", "--key", "alice", *KEYS)
    facts = _status(tmp_path, "a", "nowhere", code=1)
    alone, missing = facts["games"]
    assert alone["mode"] == "two-party" and alone["directory"] == "a"
    assert alone["players"] == {"ishida": "alice", "tokugawa": "bob"}
    assert alone["records"] == 1 and alone["waiting"] == [{"side": "tokugawa", "for": "join"}]
    assert missing["directory"] == "nowhere" and missing["error"]["code"] == "store"
    assert "nowhere" in missing["error"]["reason"]
    ok(tmp_path, "bob", "join", "a/game.txt", "--key", "bob", "--out", "b")
    [joined] = _status(tmp_path, "b")["games"]
    assert joined["records"] == 1 and joined["waiting"] == [{"side": "ishida", "for": "join"}]
    ok(tmp_path, "bob", "play", "b", "--key", "bob", "-r", "a/records/0000-ishida.txt")
    [both] = _status(tmp_path, "b")["games"]
    assert both["records"] == 2 and not both["over"] and both["revealed"] == []
    [record] = both["waiting"]
    assert record["side"] == "ishida" and record["for"] == "record" and record["due"] is None
    text = seki(tmp_path, "bob", "status", "b", "--now", "2026-11-23T12:00:00Z").stdout
    assert f"waiting for ishida's record since {record['since']}" in text


def test_a_two_party_game_over_on_the_map_waits_for_the_reveals(tmp_path):
    """A two-party demo game of random bots, over after week 7 or by an instant victory
    (its game's nonce makes each run another game), before either side has revealed: its
    last record's public form gives the result, so `seki status` says the game is over
    and waits for both reveals, and says the result. (Old code: "waiting for ishida's record",
    as if a move were due: only a resignation or a forfeit ended a game for status.)"""
    ok(tmp_path, "ref", "demo", "--two-party", "d", "--bot", "random")
    for reveal in (tmp_path / "d" / "ishida" / "reveals").iterdir():
        reveal.unlink()
    [game] = _status(tmp_path, "d/ishida")["games"]
    assert game["over"] and game["revealed"] == []
    assert game["waiting"] == [{"side": s, "for": "reveal"} for s in ("ishida", "tokugawa")]
    result = game["result"]  # as a referee's game's status says it
    assert result["how"] in ("points", "instant") and result["winner"] in ("ishida", "tokugawa")
    said = ok(tmp_path, "ref", "status", "d/ishida").splitlines()
    assert said[1] == "  the game is over: " + words.outcome(result)
    assert said[2] == "  over; secrets revealed: none yet"
