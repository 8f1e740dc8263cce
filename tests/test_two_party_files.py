"""Two-party games through the files (issue 14): the demo's two directories, `seki verify`
on each, and the files a side refuses or the audit names."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.vocab import SIDES, other
from sekigahara_pbem.twoparty import demo as two_party_demo
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty.side import Side, verify

NOW = "2026-11-23T06:00:00Z"


def seki(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args], capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("two-party")
    result = two_party_demo.run(root, "heuristic", "files")
    assert result.result is not None and result.retraced > 100
    return root


def test_seki_verify_checks_each_side_directory(played):
    for side in SIDES:
        done = seki("verify", str(played / side))
        assert done.returncode == 0, done.stderr
        assert "verified a two-party game" in done.stdout


def test_both_directories_hold_the_same_records_and_only_their_own_key(played):
    names = {s: sorted(p.name for p in (played / s / "records").iterdir()) for s in SIDES}
    # a whole game (its length varies with the keys, which are new each run: 48 records
    # have been seen); the tests below tamper with records after the 20th
    assert names["ishida"] == names["tokugawa"] and len(names["ishida"]) > 30
    for name in names["ishida"]:
        a = (played / "ishida" / "records" / name).read_bytes()
        assert a == (played / "tokugawa" / "records" / name).read_bytes()
    for s in SIDES:
        text = (played / s / "private.age").read_text()
        assert text.startswith("-----BEGIN AGE ENCRYPTED FILE-----")


def copy_of(played: Path, tmp_path: Path) -> Path:
    root = tmp_path / "copy"
    shutil.copytree(played, root)
    return root


def test_verify_names_a_record_changed_after_the_game(played, tmp_path):
    root = copy_of(played, tmp_path)
    records = sorted((root / "ishida" / "records").iterdir())
    path = next(p for p in records[20:] if "steps: 0" in p.read_text())
    text = path.read_text()
    path.write_text(text.replace("steps: 0", "steps: 1", 1))
    done = seki("verify", str(root / "ishida"))
    assert done.returncode == 3  # does not verify
    assert "bad signature" in done.stderr or path.name in done.stderr


def test_each_side_carries_the_set_and_verify_names_a_changed_copy(played, tmp_path):
    """Issue 27: each side's directory holds the component set game.txt names, and
    `seki verify` audits with that copy, so a bid changed in it is named."""
    from sekigahara_pbem.protocol.component_files import components_hash

    root = copy_of(played, tmp_path)
    for s in SIDES:
        game = files.read_game((root / s / "game.txt").read_text(), "game.txt")
        assert components_hash(root / s / "components") == game.components == components_hash()
    cards = root / "tokugawa" / "components" / "cards.yaml"
    cards.write_text(cards.read_text().replace("kind: plain, bid: 2}", "kind: plain, bid: 4}", 1))
    done = seki("verify", str(root / "tokugawa"))
    assert done.returncode == 3  # does not verify, as a referee's archive with it
    assert done.stderr == (
        "seki: does not verify: components/cards.yaml: not the component set game.txt names\n"
    )


def test_verify_refuses_a_reveal_that_is_not_the_joined_secret(played, tmp_path):
    root = copy_of(played, tmp_path)
    reveal = root / "ishida" / "reveals" / "tokugawa.txt"
    game = files.read_game((root / "ishida" / "game.txt").read_text(), "game.txt")
    with pytest.raises(Refusal, match="does not match the commitment"):
        files.read_reveal(game, reveal.read_text(), "reveal", "0" * 64)
    reveal.write_text(reveal.read_text().replace("secret: ", "secret: 00", 1))
    done = seki("verify", str(root / "ishida"))
    assert done.returncode == 3  # its signature no longer holds: does not verify


def test_a_side_refuses_a_record_twice_a_forged_one_and_one_out_of_turn(tmp_path):
    """Each refusal leaves the directory as it was."""
    from sekigahara_pbem.bot import make_player
    from sekigahara_pbem.crypto.keys import generate
    from sekigahara_pbem.protocol.component_files import components_hash, load_components
    from sekigahara_pbem.twoparty.match import player_chooser

    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    players = {s: k.public for s, k in keys.items()}
    text = files.make_game("g2", components_hash(), {}, players, keys["tokugawa"])
    game = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (tmp_path / s).mkdir()
        (tmp_path / s / "game.txt").write_text(text)
        sides[s] = Side(tmp_path / s, game, keys[s], comp)
    joins = {s: sides[s].join(NOW) for s in SIDES}
    for s in SIDES:
        sides[other(s)].receive(joins[s], "join", NOW)
    choose = player_chooser(make_player("heuristic", comp, {}, "x"))
    first = sides["ishida"].turn(choose, NOW)

    def snapshot() -> dict:
        root = tmp_path / "tokugawa"
        return {p.name: p.read_bytes() for p in root.rglob("*") if p.is_file()}

    before = snapshot()
    forged = first.replace("seq: 1", "seq: 2", 1)
    with pytest.raises(Refusal, match="signature"):
        sides["tokugawa"].receive(forged, "forged", NOW)
    assert snapshot() == before
    with pytest.raises(Refusal, match="not the other side's"):
        sides["tokugawa"].receive(joins["tokugawa"], "own", NOW)
    assert snapshot() == before
    sides["tokugawa"].receive(first, "first", NOW)
    after = snapshot()
    with pytest.raises(Refusal, match="comes next"):
        sides["tokugawa"].receive(first, "again", NOW)
    assert snapshot() == after
    with pytest.raises(Refusal, match="waiting for the other side"):
        sides["ishida"].turn(choose, NOW)


def test_no_file_a_side_receives_names_a_hidden_item_before_it_is_opened(played):
    """Secrecy through the files: each record, scanned for every item of its author (all
    it ever bound or dealt, from the audit with the revealed secrets) not opened yet."""
    audit = verify(played / "ishida")
    own = {s: set(audit.parties[s].book.own) for s in SIDES}
    opened: dict[str, set[str]] = {s: set() for s in SIDES}
    checked = 0
    for path in sorted((played / "ishida" / "records").iterdir()):
        text = path.read_text()
        side = path.stem.split("-", 1)[1]
        body, _ = signing.split(text)
        for entry in docs.load_yaml(body, path.name)["entries"]:
            opened[side] |= {pair[0] for pair in entry["opened"].values()}
        hidden = own[side] - opened[side]
        leaked = sorted(hidden & set(re.findall(r"[\w-]+", text)))
        assert not leaked, f"{path.name} names {leaked}"
        checked += len(hidden)
    assert checked > 1000


def two_sides(tmp_path: Path, hours: int | None = None) -> tuple[dict, dict]:
    """Two sides of a new game, joined; and a heuristic chooser for each."""
    from sekigahara_pbem.bot import make_player
    from sekigahara_pbem.crypto.keys import generate
    from sekigahara_pbem.protocol.component_files import components_hash, load_components
    from sekigahara_pbem.twoparty.match import player_chooser

    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    players = {s: k.public for s, k in keys.items()}
    text = files.make_game("t", components_hash(), {}, players, keys["ishida"], None, hours)
    game = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (tmp_path / s).mkdir()
        (tmp_path / s / "game.txt").write_text(text)
        sides[s] = Side(tmp_path / s, game, keys[s], comp)
    joins = {s: sides[s].join(NOW) for s in SIDES}
    for s in SIDES:
        sides[other(s)].receive(joins[s], "join", NOW)
    choosers = {s: player_chooser(make_player("heuristic", comp, {}, s)) for s in SIDES}
    return sides, choosers


def reveal_both(sides: dict, now: str = NOW) -> None:
    for s in SIDES:
        sides[other(s)].take_reveal(sides[s].reveal(now), "reveal", now)


def test_a_side_silent_past_the_deadline_forfeits(tmp_path):
    sides, choose = two_sides(tmp_path, hours=24)
    sent = sides["ishida"].turn(choose["ishida"], "2026-11-23T06:00:00Z")
    sides["tokugawa"].receive(sent, "mail", NOW)
    assert sides["ishida"].late("2026-11-24T05:00:00Z") is None
    with pytest.raises(Refusal, match="not past the deadline"):
        sides["ishida"].claim_forfeit("2026-11-24T05:00:00Z")
    assert sides["ishida"].late("2026-11-24T09:00:00Z") == 3
    claim = sides["ishida"].claim_forfeit("2026-11-24T09:00:00Z")
    sides["tokugawa"].receive(claim, "mail", "2026-11-24T09:00:00Z")
    result = sides["tokugawa"].result()
    assert result["winner"] == "ishida" and result["how"] == "forfeit"
    reveal_both(sides, "2026-11-24T10:00:00Z")
    assert verify(tmp_path / "tokugawa").retraced > 0


def test_a_forfeit_claimed_early_is_refused(tmp_path):
    sides, choose = two_sides(tmp_path, hours=24)
    sides["tokugawa"].receive(sides["ishida"].turn(choose["ishida"], NOW), "mail", NOW)
    party = sides["ishida"].load()
    base = party.agreed
    early = sides["ishida"]._write_record(party, party.forfeit(2), base, {}, "2026-11-23T07:00:00Z")
    with pytest.raises(Refusal, match="before the deadline"):
        sides["tokugawa"].receive(early, "mail", "2026-11-23T07:00:00Z")
    assert sides["tokugawa"].result() is None


def test_a_side_that_does_not_reveal_forfeits(tmp_path):
    """The other side, having revealed, claims the win once the deadline has passed
    since the game's last record; verify then replays the revealed side alone."""
    sides, choose = two_sides(tmp_path, hours=24)
    sides["tokugawa"].receive(sides["ishida"].turn(choose["ishida"], NOW), "mail", NOW)
    sides["ishida"].receive(
        sides["tokugawa"].resign("2026-11-23T07:00:00Z"), "mail", "2026-11-23T07:00:00Z"
    )
    with pytest.raises(Refusal, match="reveal your own secret first"):
        sides["ishida"].claim_forfeit("2026-11-25T07:00:00Z")
    sides["tokugawa"].take_reveal(
        sides["ishida"].reveal("2026-11-23T08:00:00Z"), "mail", "2026-11-23T08:00:00Z"
    )
    with pytest.raises(Refusal, match="not here yet"):
        verify(tmp_path / "ishida")
    assert sides["ishida"].late("2026-11-24T06:00:00Z") is None
    with pytest.raises(Refusal, match="not past the deadline"):
        sides["ishida"].claim_forfeit("2026-11-24T06:00:00Z")
    assert sides["ishida"].late("2026-11-24T09:00:00Z") == 2
    claim = sides["ishida"].claim_forfeit("2026-11-24T09:00:00Z")
    for s in SIDES:
        if s == "tokugawa":
            sides[s].receive(claim, "mail", "2026-11-24T09:00:00Z")
        result = sides[s].result()
        assert (result["how"], result["rule"], result["winner"]) == ("forfeit", "reveal", "ishida")
        assert result["played"]["how"] == "resignation"
    with pytest.raises(Refusal, match="already ended by forfeit"):
        sides["ishida"].claim_forfeit("2026-11-30T09:00:00Z")
    replay = verify(tmp_path / "ishida")
    assert replay.unrevealed == "tokugawa" and replay.retraced > 0
    done = seki("verify", str(tmp_path / "ishida"))
    assert done.returncode == 0 and "tokugawa did not reveal" in done.stdout
    assert verify(tmp_path / "tokugawa").unrevealed == "tokugawa"  # it holds ishida's reveal


def test_a_reveal_forfeit_is_refused_when_the_reveal_came(tmp_path):
    sides, choose = two_sides(tmp_path, hours=24)
    sides["tokugawa"].receive(sides["ishida"].turn(choose["ishida"], NOW), "mail", NOW)
    sides["ishida"].receive(sides["tokugawa"].resign(NOW), "mail", NOW)
    reveal_both(sides)
    with pytest.raises(Refusal, match="reveal is here"):
        sides["ishida"].claim_forfeit("2026-11-30T09:00:00Z")
    assert sides["ishida"].late("2026-11-30T09:00:00Z") is None


def test_a_deadline_forfeit_claimed_after_the_end_is_a_cheat(tmp_path):
    """The loser, whose record ended the game, may not claim later that the other side
    sent nothing: a game ends once (rule 2)."""
    from sekigahara_pbem.twoparty.exchange import FORFEIT, Entry, Record

    sides, choose = two_sides(tmp_path, hours=24)
    sides["tokugawa"].receive(sides["ishida"].resign(NOW), "mail", NOW)
    party = sides["ishida"].load()
    base = party.agreed
    party.seq += 1
    reason = "tokugawa sent nothing within the deadline after record 2"
    result = {"winner": "ishida", "how": "forfeit", "rule": "deadline", "reason": reason}
    party.public = {**party.public, "result": result}  # the engine ends a game once
    entry = Entry("ishida", {"type": FORFEIT, "record": 2}, 0, {}, party.public)
    forged = Record("ishida", party.seq, [entry], {}, bytes(32))
    text = sides["ishida"]._write_record(party, forged, base, {}, "2026-11-25T06:00:00Z")
    with pytest.raises(Refusal, match="not owed"):
        sides["tokugawa"].receive(text, "mail", "2026-11-25T06:00:00Z")
    assert sides["tokugawa"].result()["how"] == "resignation"


def test_a_side_resigns_in_its_own_record(tmp_path):
    sides, choose = two_sides(tmp_path)
    sides["tokugawa"].receive(sides["ishida"].turn(choose["ishida"], NOW), "mail", NOW)
    with pytest.raises(Refusal, match="resign in your own record"):
        sides["ishida"].resign(NOW)
    sides["ishida"].receive(sides["tokugawa"].resign(NOW), "mail", NOW)
    result = sides["ishida"].result()
    assert result["winner"] == "ishida" and result["how"] == "resignation"
    reveal_both(sides)
    assert verify(tmp_path / "ishida").retraced > 0


def play_on(sides: dict, choose: dict, turn: str, records: int) -> str:
    """Play `records` records from `turn`'s; the side whose turn it is next."""
    for _ in range(records):
        if sides[turn].result() is not None:
            break
        sides[other(turn)].receive(sides[turn].turn(choose[turn], NOW), "mail", NOW)
        turn = other(turn)
    return turn


def test_a_takeback_agreed_and_one_refused_then_the_game_verifies(tmp_path):
    """Both sides go back to before the record taken back; the records stay, so the
    history shows it, and the audit replays it. A takeback refused is simply a record
    answering the move."""
    sides, choose = two_sides(tmp_path)
    turn = play_on(sides, choose, "ishida", 9)  # ishida wrote last: tokugawa's turn
    asker = other(turn)
    with pytest.raises(Refusal, match="only your last record"):
        sides[turn].request_takeback(NOW)
    taken = sides[asker].records()[-1].name
    sides[turn].receive(sides[asker].request_takeback(NOW), "mail", NOW)
    sides[asker].receive(sides[turn].agree_takeback(NOW), "mail", NOW)
    for s in SIDES:
        assert sides[s].whose_turn() == asker
        assert taken in [p.name for p in sides[s].records()]  # the history keeps it
        back = sides[s].snapshot(len(sides[s].records()) - 4)  # before the record taken back
        assert sides[s].load().to_data() == back.to_data()
    turn = play_on(sides, choose, asker, 5)
    asker = other(turn)
    sides[turn].receive(sides[asker].request_takeback(NOW), "mail", NOW)
    turn = play_on(sides, choose, turn, 400)  # refused: the other side plays on
    assert sides["ishida"].result() is not None
    reveal_both(sides)
    for s in SIDES:
        assert verify(tmp_path / s).retraced > 100
    # the replay (`seki replay`) shows the game as it stands: the record taken back and the
    # two asides are not among its records, each of the others is, in order
    numbers = [p.n for p in verify(tmp_path / "ishida").replayed()]
    asides = {int(taken[:4]), int(taken[:4]) + 1, int(taken[:4]) + 2}
    assert len(numbers) > 30 and numbers == sorted(numbers) and not asides & set(numbers)


def test_a_run_stopped_between_the_record_and_the_knowledge_is_caught_up(tmp_path, monkeypatch):
    """A crash after a record is written and before the side's knowledge is sealed: the
    next run makes its own record again from its choices, or reads the other's again.
    The crash comes where the side owes openings of its own items, so its public form is
    not the one its record starts from."""
    sides, choose = two_sides(tmp_path)
    turn = play_on(sides, choose, "ishida", 6)
    for _ in range(300):
        if sides[turn].load().owed:
            break
        turn = play_on(sides, choose, turn, 1)
    assert sides[turn].load().owed
    real_save = Side.save

    def crash(self, party, n=None):
        raise OSError("killed")

    monkeypatch.setattr(Side, "save", crash)
    with pytest.raises(OSError):
        sides[turn].turn(choose[turn], NOW)  # the record is on file, the knowledge is not
    monkeypatch.setattr(Side, "save", real_save)
    sent = sides[turn].records()[-1].read_text()
    assert sides[turn].whose_turn() == other(turn)
    monkeypatch.setattr(Side, "save", crash)
    with pytest.raises(OSError):
        sides[other(turn)].receive(sent, "mail", NOW)
    monkeypatch.setattr(Side, "save", real_save)
    play_on(sides, choose, other(turn), 400)  # each side's next run catches up first
    assert sides["ishida"].result() is not None
    reveal_both(sides)
    assert verify(tmp_path / "ishida").retraced > 100
