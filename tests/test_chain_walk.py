"""One walk along the chain for both modes (protocol/chain.py `Walk`, issue 40): a record
stands at the next place, names the hash of the one before and is dated no earlier than
it, checked by the same code when the referee's archive is verified, when a two-party side
takes in the other's record, and when a two-party archive is verified."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from test_pbem import NOW, _game

from sekigahara_pbem import cli
from sekigahara_pbem.protocol.chain import Link, Walk
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.discrepancy import Discrepancy
from sekigahara_pbem.referee.records import writer
from sekigahara_pbem.referee.steps import Step
from sekigahara_pbem.refusal import Code, ExitStatus, Refusal

T0 = datetime(2026, 11, 22, 12, tzinfo=UTC)


def _walk() -> Walk:
    return Walk(2, "a" * 64, T0, Refusal, "two-party: Records")


def test_a_record_that_follows_is_stood_on():
    walk = _walk()
    walk.step(Link(2, "a" * 64, T0), "b" * 64, "records/0002-ishida.txt")
    walk.step(Link(3, "b" * 64, T0 + timedelta(hours=1)), "c" * 64, "records/0003-tokugawa.txt")
    assert (walk.place, walk.prev, walk.after) == (4, "c" * 64, T0 + timedelta(hours=1))


@pytest.mark.parametrize(
    ("link", "words", "code"),
    [
        (Link(3, "a" * 64, T0), "record 3 where 2 comes next", Code.STALE),
        (Link(2, "e" * 64, T0), "it does not follow the last record \\(prev\\)", Code.STALE),
        (Link(2, "a" * 64, T0 - timedelta(seconds=1)), "times never go back", Code.CHEAT),
    ],
)
def test_a_record_that_does_not_follow_is_refused_and_not_stood_on(link, words, code):
    walk = _walk()
    with pytest.raises(Refusal, match=words) as refused:
        walk.step(link, "b" * 64, "records/0002-ishida.txt")
    assert refused.value.code == code and refused.value.rule == "two-party: Records"
    assert (walk.place, walk.prev, walk.after) == (2, "a" * 64, T0)


def test_a_referees_back_dated_record_does_not_verify(tmp_path):
    """A hostile referee signs a record dated a day before the one it follows (to start a
    side's deadline early): `seki verify` finds it in the words a two-party side uses for
    the other side's back-dated record (tests/test_two_party_claims.py)."""
    root, ids, _definition = _game(tmp_path)
    game = referee.open_game(root, ids["ref"])
    record, state = referee.current(game)
    earlier = "2026-11-21T12:00:00Z"
    assert earlier < NOW
    draft = writer.Draft(Step(state, [], None), [], "odd", earlier, {"kind": "deadline"})
    writer.write(game, record, state, draft)
    with pytest.raises(Discrepancy, match="times never go back") as found:
        checks.verify(root)
    assert str(found.value).startswith("records/000002.txt is dated 2026-11-21T12:00:00Z")


def test_a_two_party_archive_with_two_records_swapped_does_not_verify(tmp_path):
    """A two-party demo game's archive with records 4 and 5 swapped (each still signed by
    its side): `seki verify` names where the chain breaks, in the words a side uses taking
    in a record out of its place, and ends as a referee's archive that does not verify
    does (exit 3; it was a plain refusal, exit 1, in words of its own)."""
    runner = CliRunner()
    made = runner.invoke(cli.app, ["demo", "--two-party", str(tmp_path / "d"), "--bot", "random"])
    assert made.exit_code == 0, made.output
    records = tmp_path / "d" / "ishida" / "records"
    fourth, fifth = records / "0004-ishida.txt", records / "0005-tokugawa.txt"
    texts = fourth.read_bytes(), fifth.read_bytes()
    fourth.write_bytes(texts[1])
    fifth.write_bytes(texts[0])
    checked = runner.invoke(cli.app, ["verify", str(tmp_path / "d" / "ishida")])
    assert checked.exit_code == ExitStatus.NOT_VERIFIED, checked.output
    assert "records/0004-ishida.txt: record 5 where 4 comes next" in checked.output
    # before the reveals too, as a referee's archive is walked before its reveal (it was
    # "not here yet", exit 1, whatever the records held)
    for reveal in (tmp_path / "d" / "ishida" / "reveals").iterdir():
        reveal.unlink()
    checked = runner.invoke(cli.app, ["verify", str(tmp_path / "d" / "ishida")])
    assert checked.exit_code == ExitStatus.NOT_VERIFIED, checked.output
    assert "records/0004-ishida.txt: record 5 where 4 comes next" in checked.output
    fourth.write_bytes(texts[0])
    fifth.write_bytes(texts[1])
    checked = runner.invoke(cli.app, ["verify", str(tmp_path / "d" / "ishida")])
    assert checked.exit_code == 0, checked.output
    assert "records of a two-party game: their signatures, chain and times" in checked.output
