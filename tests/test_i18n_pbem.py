"""The referee side's refusals and messages in the reader's language (issue 17): a
malformed game.txt and a malformed turn file are refused in Hungarian through the real
CLI (the English text, which records and rejected files keep, unchanged); the store's
errors, the deadline's time left and the closing report speak the reader's language."""

from __future__ import annotations

import contextlib
from pathlib import Path

from click.testing import CliRunner
from cligame import PACKET, ok, signed_bid, started
from test_i18n import _new_game
from test_reports import columns

from sekigahara_pbem import i18n
from sekigahara_pbem.cli import app
from sekigahara_pbem.protocol import clock
from sekigahara_pbem.protocol.documents import DocumentError
from sekigahara_pbem.protocol.store import GameDir, StoreError
from sekigahara_pbem.referee.closing import closing_text
from sekigahara_pbem.refusal import UserError
from sekigahara_pbem.reports.model import _result as report_result

ROOT = Path(__file__).parent.parent


def _invoke(home: Path, *args: str):
    return CliRunner().invoke(app, list(args), env={"SEKI_HOME": str(home), "LANG": "C"})


def test_a_malformed_game_definition_is_refused_in_the_language_of_the_key_directory(
    tmp_path,
):
    """`seki join game.txt` with `deadlines: hours: 0`: English without config.toml, the
    same refusal in Hungarian with `lang = "hu"` in the key directory; file and field
    names stay as they are."""
    home = tmp_path / "alice"
    assert _invoke(home, "keys", "new", "alice").exit_code == 0
    text = (ROOT / "games" / "demo" / "game.txt").read_text(encoding="utf-8")
    bad = text.replace(
        "-----BEGIN SEKI SIGNATURE-----", "deadlines:\n  hours: 0\n-----BEGIN SEKI SIGNATURE-----"
    )
    game_txt = tmp_path / "game.txt"
    game_txt.write_text(bad, encoding="utf-8")
    en = _invoke(home, "join", str(game_txt), "--key", "alice")
    assert en.exit_code == 1 and "Traceback" not in en.output, en.output
    assert f"{game_txt}: deadlines: hours: at least 1" in en.output
    (home / "config.toml").write_text('lang = "hu"\n', encoding="utf-8")
    hu = _invoke(home, "join", str(game_txt), "--key", "alice")
    assert hu.exit_code == 1, hu.output
    assert f"{game_txt}: deadlines: hours: legalább 1" in hu.output
    assert "at least" not in hu.output


def test_a_malformed_turn_file_is_refused_in_hungarian(tmp_path):
    """`seki turn check --lang hu` on a turn file with no actions and one for another game:
    the document's refusal in Hungarian after the file and field it names."""
    g = _new_game(tmp_path)
    packet = GameDir(g).packet(1, "ishida")
    turn = tmp_path / "turn.yaml"
    turn.write_text("format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\nactions: []\n")
    args = ["turn", "check", str(turn), "--packet", str(packet), "--key", "alice"]
    en = _invoke(tmp_path / "alice", *args)
    assert en.exit_code == 1, en.output
    assert f"{turn}: actions: expected 1 to 200 actions" in en.output
    hu = _invoke(tmp_path / "alice", *args, "--lang", "hu")
    assert hu.exit_code == 1, hu.output
    assert f"{turn}: actions: várt: 1–200 akció" in hu.output
    assert f"{turn}: {turn}" not in hu.output  # the file is named once


def test_document_and_store_errors_keep_their_english_text_and_are_explained():
    """str() is the English text that files keep, byte for byte; explain() translates."""
    exc = DocumentError("turn.txt: game", "not for game {game}", code="wrong_game", game="g")
    assert str(exc) == "turn.txt: game: not for game g" and exc.code == "wrong_game"
    store = StoreError("{path}: no such game directory", path=Path("/x/g"))
    assert isinstance(store, UserError) and str(store) == "/x/g: no such game directory"
    with i18n.using("en"):  # a command run before may have left another language active
        assert i18n.explain(exc) == "turn.txt: game: not for game g"
    with i18n.using("hu"):
        assert i18n.explain(exc) == "turn.txt: game: nem ehhez a játszmához tartozik (g)"
        assert i18n.explain(store) == "/x/g: nincs ilyen játékkönyvtár"
    plain = StoreError("git {x} failed")  # no params: taken as it is
    assert str(plain) == i18n.explain(plain) == "git {x} failed"


def test_time_left_and_the_closing_report_speak_the_readers_language():
    i18n.activate("en")  # a command run before may have left another language active
    assert clock.time_left("2026-11-24T13:00:00Z", "2026-11-22T10:00:00Z") == "2 days 3 h left"
    assert clock.time_left("2026-11-22T10:00:00Z", "2026-11-22T15:30:00Z") == "5 h 30 min overdue"
    stats = {
        "records": 40,
        "turn_files": 38,
        "first": "2026-11-01T10:00:00Z",
        "last": "2026-11-22T10:00:00Z",
        "result": {"winner": "tokugawa", "how": "resignation", "rule": "10.1", "reason": None},
        "counts": {"Loyalty Challenges": 3, "battles": 7, "missed deadlines": 1},
    }
    english = closing_text("g", stats)
    assert "  records in the chain: 40\n  turn files accepted:  38\n" in english
    assert "  Loyalty Challenges:   3\n" in english
    with i18n.using("hu"):
        assert clock.time_left("2026-11-24T13:00:00Z", "2026-11-22T10:00:00Z") == (
            "még 2 nap 3 óra"
        )
        hungarian = closing_text("g", stats)
    assert hungarian.startswith("Vége a játszmának (g).\nTokugawa győz (feladás")
    assert "  jegyzőkönyvek a láncban: 40\n" in hungarian and "  hűségkártyák:" in hungarian
    assert "(21 nap)" in hungarian and "seki verify GAME-DIRECTORY" in hungarian
    assert max(columns(line) for line in hungarian.splitlines()) <= 80


def test_2_2_the_closing_report_gives_the_score_of_a_game_won_on_points():
    """A game won on points (2.2) is closed with the score, once: not "(points, rule 2.2:
    points)"; a forfeit's reason is said with its rule; the report's GAME OVER line says
    the result in the same words ("wins (resignation; rule 2)", not "wins resignation")."""
    stats = {"records": 90, "turn_files": 89, "first": None, "last": None, "counts": {},
             "result": {"winner": "tokugawa", "how": "points", "rule": "2.2",
                        "points": {"ishida": 12, "tokugawa": 15}}}  # fmt: skip
    with i18n.using("en"):
        text = closing_text("g", stats)
        assert "Tokugawa wins on points (Ishida 12, Tokugawa 15; rule 2.2).\n" in text
        forfeit = {"winner": "ishida", "how": "forfeit", "rule": "deadline",
                   "reason": "no record within the deadline"}  # fmt: skip
        text = closing_text("g", {**stats, "result": forfeit})
        assert "Ishida wins (forfeit: no record within the deadline; rule deadline).\n" in text
        resigned = {"winner": "ishida", "how": "resignation", "rule": "2",
                    "reason": "tokugawa resigned"}  # fmt: skip
        assert report_result({"result": resigned}) == "GAME OVER: Ishida wins (resignation; rule 2)"
    with i18n.using("hu"):
        text = closing_text("g", stats)
    assert "Tokugawa győz győzelmi pontokkal (Ishida 12, Tokugawa 15; szabály: 2.2).\n" in text


def test_a_stale_answers_reason_is_in_the_readers_language(tmp_path):
    """Ishida's bid is taken (it answered packet 1); its resignation answering packet 1
    again is refused as stale, and the reason is Hungarian too (it was English inside the
    Hungarian line: steps.stale wrote it as an f-string)."""
    started(tmp_path)
    ok(tmp_path, "ref", "adjudicate", "g", str(signed_bid(tmp_path)), "--key", "ref")
    (tmp_path / "resign.yaml").write_text(
        "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\nactions: [{type: resign}]\n"
    )
    ok(tmp_path, "alice", "turn", "sign", "resign.yaml", "--packet", PACKET, "--key", "alice")
    with contextlib.chdir(tmp_path):
        hu = CliRunner().invoke(
            app, ["adjudicate", "g", "resign.signed.txt", "--key", "ref"],
            env={"SEKI_HOME": str(tmp_path / "ref"), "LANGUAGE": "hu"},
        )  # fmt: skip
    assert hu.exit_code == 1, hu.output
    assert (
        "ELUTASÍTVA resign.signed.txt: answers: 1 elavult vagy ismeretlen; Ishida ezekre a "
        "csomagokra válaszolhat: 2–2 (a legutóbbiig)"
    ) in hu.stdout
