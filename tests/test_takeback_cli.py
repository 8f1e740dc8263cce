"""`seki takeback request` and `seki takeback answer` through the command line, as the
players and the referee run them (docs/referee.md, "Takebacks"): a game made by the
commands, Ishida's bid adjudicated, then its takeback asked, accepted or refused, and
adjudicated; `seki status` and `seki verify` then show the record undone, or kept. A
request the referee cannot grant and an answer from the wrong player are refused in one
line."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from cligame import ok, seki, signed_bid, started

from sekigahara_pbem import cli

REQUEST = "takeback-g-2.signed.txt"  # the request of record 2, Ishida's bid
ANSWER = "takeback-g-2.signed.answer.signed.txt"


def _refused(root: Path, who: str, *args: str) -> Result:
    """A command that stops on a user's error: exit 1, one line on stderr, no bug."""
    result = seki(root, who, *args)
    assert result.exit_code == 1, (args, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("seki: "), result.stderr
    assert "Traceback" not in result.output
    return result


def _written(root: Path, who: str, *args: str) -> str:
    """What a takeback command says: the file it wrote, on stderr (the file is its
    product: nothing on stdout)."""
    result = seki(root, who, *args)
    assert result.exit_code == 0 and result.stdout == "", (args, result.output)
    return result.stderr


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """Keys, game g set up (record 1), and a copy of it then ("setup"); Ishida's bid
    signed and adjudicated (record 2, the last: "bid")."""
    root = tmp_path_factory.mktemp("game")
    started(root)
    setup = tmp_path_factory.mktemp("setup")
    shutil.copytree(root, setup, dirs_exist_ok=True)
    signed_bid(root)
    assert "record 2" in ok(root, "ref", "adjudicate", "g", "bid.signed.txt", "--key", "ref")
    return {"setup": setup, "bid": root}


@pytest.fixture
def game(made, tmp_path) -> Path:
    """A copy of the game with Ishida's bid as its last record."""
    root = tmp_path / "game"
    shutil.copytree(made["bid"], root)
    return root


def _asked(root: Path) -> Path:
    """Ishida asks to take back its bid, and the referee takes the request in."""
    said = _written(root, "alice", "takeback", "request", "g/packets/000002-ishida.txt",
               "--key", "alice", "--reason", "misclick")  # fmt: skip
    assert f"wrote {REQUEST}" in said and "your opponent is asked to consent" in said
    said = ok(root, "ref", "adjudicate", "g", REQUEST, "--key", "ref")
    assert "takeback of record 2 requested by ishida; waiting for tokugawa" in said
    assert "record 2" in ok(root, "ref", "status", "g").splitlines()[0]  # nothing undone yet
    return root / REQUEST


def test_a_takeback_asked_and_accepted_undoes_the_bid(game):
    _asked(game)
    said = _written(game, "bob", "takeback", "answer", REQUEST, "--accept", "--key", "bob")
    assert f"wrote {ANSWER} (accepting the takeback of record 2)" in said
    said = ok(game, "ref", "adjudicate", "g", ANSWER, "--key", "ref")
    assert "record 3: takeback of record 2 (asked by ishida, accepted by tokugawa)" in said
    status = ok(game, "ref", "status", "g")
    assert "record 3 (takeback of record 2 (asked by ishida, accepted by tokugawa))" in status
    assert "awaiting Ishida: bid" in status and "awaiting Tokugawa: bid" in status
    assert sorted(p.name for p in (game / "g" / "requests").iterdir()) == [
        "000002-consent-tokugawa.txt",
        "000002-takeback-ishida.txt",
    ]
    assert (game / "g" / "turns").is_dir() and any((game / "g" / "turns").iterdir())  # kept
    again = ok(game, "alice", "view", "g/packets/000003-ishida.txt", "--key", "alice")
    first = ok(game, "alice", "view", "g/packets/000001-ishida.txt", "--key", "alice")
    options = [line for line in again.splitlines() if "{type: bid, card:" in line]
    assert options and options == [line for line in first.splitlines() if "{type: bid" in line]
    assert "verified 3 records" in ok(game, "ref", "verify", "g")
    ok(game, "ref", "reveal", "g", "--key", "ref", "--force")
    assert "verified 3 records" in ok(game, "ref", "verify", "g")  # states replayed


def test_a_takeback_refused_keeps_the_bid(game):
    _asked(game)
    said = _written(game, "bob", "takeback", "answer", REQUEST, "--refuse", "--key", "bob")
    assert f"wrote {ANSWER} (refusing the takeback of record 2)" in said
    said = ok(game, "ref", "adjudicate", "g", ANSWER, "--key", "ref")
    assert "takeback of record 2 refused by tokugawa" in said
    status = ok(game, "ref", "status", "g")
    assert "record 2 (week 1 turn A: ishida bid" in status
    assert "awaiting Tokugawa: bid" in status and "awaiting Ishida" not in status
    assert "verified 2 records" in ok(game, "ref", "verify", "g")
    late = _written(game, "bob", "takeback", "answer", REQUEST, "--accept", "--key", "bob",
               "--out", "late.txt")  # fmt: skip
    assert "wrote late.txt" in late
    result = _refused(game, "ref", "adjudicate", "g", "late.txt", "--key", "ref")
    assert "the takeback of record 2 has already been answered" in result.stdout
    assert "record 2 (week 1 turn A" in ok(game, "ref", "status", "g")


def test_an_answer_from_the_requester_is_refused(game):
    request = _asked(game)
    result = _refused(game, "alice", "takeback", "answer", REQUEST, "--accept", "--key", "alice")
    assert f"seki: {REQUEST}: the answer must come from tokugawa, not alice" in result.stderr
    assert not request.with_name(ANSWER).exists()


def test_a_request_for_a_record_that_is_not_the_last_is_refused(game):
    said = _written(game, "alice", "takeback", "request", "g/packets/000001-ishida.txt",
               "--key", "alice", "--out", "old.txt")  # fmt: skip
    assert "wrote old.txt" in said
    result = _refused(game, "ref", "adjudicate", "g", "old.txt", "--key", "ref")
    assert "REFUSED old.txt: undo: only the last adjudication (record 2) can be taken back" in (
        result.stdout
    )
    assert result.stderr.strip() == "seki: 1 of 1 file refused"
    assert not list((game / "g").glob("requests/*"))  # nothing asked of Tokugawa
    assert [p.name for p in (game / "g" / "rejected").iterdir()] == ["0001-old.txt.sealed"]
    assert "record 2" in ok(game, "ref", "status", "g").splitlines()[0]


def test_the_setup_cannot_be_taken_back(made, tmp_path):
    root = tmp_path / "setup"
    shutil.copytree(made["setup"], root)
    ok(root, "bob", "takeback", "request", "g/packets/000001-tokugawa.txt", "--key", "bob")
    result = _refused(root, "ref", "adjudicate", "g", "takeback-g-1.signed.txt", "--key", "ref")
    assert "takeback refused: the setup (record 1) cannot be taken back" in result.stdout
    with contextlib.chdir(root):  # the reason too in the reader's language, as the line
        magyar = CliRunner().invoke(
            cli.app, ["adjudicate", "g", "takeback-g-1.signed.txt", "--key", "ref"],
            env={"SEKI_HOME": str(root / "ref"), "LANGUAGE": "hu"},
        )  # fmt: skip
    assert magyar.exit_code == 1, magyar.output
    assert "visszavonás elutasítva: a felállítás (1. jegyzőkönyv) nem vonható vissza" in (
        magyar.stdout
    )
