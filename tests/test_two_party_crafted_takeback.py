"""Crafted records a modified client sends in two-party mode, mounted through the real
files: the record signed with its author's real key and taken in by the other side with
`seki play DIR --key SIDE -r FILE`. Each is refused as a cheat, in one line, the
receiver's directory as it was (never an internal error)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from two_party_forgery import chooser
from two_party_game import Game, play_until

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.refusal import ExitStatus
from sekigahara_pbem.rules.vocab import other
from sekigahara_pbem.twoparty import files


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def owes_openings(side) -> bool:
    """The other side's steps showed items of this side's (an eliminated block): its next
    record opens them first."""
    return bool(side.load().owed)


@pytest.fixture(scope="module")
def owing(tmp_path_factory) -> Game:
    """Two bots' game through the files, up to a record whose author owes openings: the
    record before it (the other side's) is the last on file, not answered yet."""
    return play_until(tmp_path_factory.mktemp("owing"), owes_openings, "open")


def take(game: Game, side: str, root: Path, text: str):
    """`text` taken in by a copy of `side`'s directory, as its player types
    `seki play DIR --key SIDE -r FILE`; the result and the copy's root."""
    copy = game.copy(side, root / "victim")
    home = root / "home"
    write_identity(home, game.keys[side])
    path = root / "record.txt"
    path.write_text(text, encoding="utf-8")
    before = snapshot(copy.root)
    done = CliRunner().invoke(
        app, ["play", str(copy.root), "--key", side, "-r", str(path)], env={"SEKI_HOME": str(home)}
    )
    return done, before, copy.root


def test_a_takeback_record_whose_entry_is_held_is_refused_while_openings_are_owed(owing, tmp_path):
    """The receiver owes openings of its own items the other side's last record showed.
    The other side's modified client asks a takeback of that record (as its stock client
    does), its entry made held (`steps: -1`, so it holds no public form) and signed again
    with its key. Refused as a takeback record that is not the game as it stands, the
    receiver's directory as it was. (Old code: the receiver opened its owed items in the
    missing public form and crashed with a TypeError: an internal error, exit 70.)"""
    victim, asker, data = _takeback_asked(owing, tmp_path)
    entry = data["entries"][0]
    assert entry["action"] == {"type": "takeback"} and entry["steps"] == 0
    entry["steps"] = -1
    del entry["change"], entry["public"]
    crafted = signing.sign(docs.dump(data), owing.keys[asker])
    _refused(
        owing, victim, tmp_path, crafted, f"{asker}'s takeback record is not the game as it stands"
    )


def test_a_result_whose_public_form_lacks_a_key_is_refused(owing, tmp_path):
    """The author's modified client takes its honest record and deletes from the public
    form of its last computed entry a key whose value there is null (`result`: the game
    goes on), its change and hash written to match, the record signed with its key. The
    form is not the one the receiver's engine reaches: refused as a result that differs
    at /result, the receiver's directory as it was. (Old code: a missing key compared
    equal to a null, the form was taken, and the receiver crashed reading its result
    with a KeyError: an internal error, exit 70.)"""
    author, victim = owing.due, other(owing.due)
    base = owing.sides[victim].load().agreed
    text = owing.copy(author, tmp_path / "author").turn(chooser("crafted"), owing.clock.now())
    received = files.read_record(owing.sides[victim].game, text, "honest", lambda s, q: base)
    record = received.record
    last = max(j for j, e in enumerate(record.entries) if e.public is not None)
    public = record.entries[last].public
    assert public is not None and public["result"] is None
    del public["result"]
    written = received.body["written"]
    game, key = owing.sides[author].game, owing.keys[author]
    crafted = files.record_text(game, record, received.n, received.prev, base, key, {}, written)
    _refused(
        owing,
        victim,
        tmp_path,
        crafted,
        f"{author}'s result differs from this side's engine at /result",
    )


def _takeback_asked(owing, tmp_path) -> tuple[str, str, dict]:
    """The receiver (the side whose record is due, owing openings), the other side, and
    the body of that side's honest takeback request of its last record."""
    victim = owing.due
    asker = other(victim)
    assert owing.sides[victim].load().owed
    forger = owing.copy(asker, tmp_path / "forger")
    data = yaml.safe_load(signing.split(forger.request_takeback(owing.clock.now()))[0])
    return victim, asker, data


def _refused(
    owing, victim: str, tmp_path, crafted: str, words: str, status=ExitStatus.NOT_VERIFIED
) -> None:
    """`crafted`, taken in by `victim` with `seki play --receive`, is refused in one line
    saying `words` (exit 3: a cheat; exit 1, `REFUSED`: a file that is not a record seki
    writes), no bug escaping, its directory as it was."""
    done, before, root = take(owing, victim, tmp_path, crafted)
    assert isinstance(done.exception, SystemExit), repr(done.exception)
    assert done.exit_code == status, done.output
    said = [line for line in done.output.splitlines() if line.strip()]
    assert len(said) == 1, done.output
    assert words in said[0]
    assert "Traceback" not in done.output and "internal error" not in done.output
    assert snapshot(root) == before


def test_an_action_holding_a_handle_beside_a_number_is_refused(owing, tmp_path):
    """The author's modified client adds to an action of its honest record a list that
    holds a handle beside a number, the record signed again with its key. The receiver
    refuses the file, naming the entry, its directory as it was. (Old code: the
    receiver sorted the list to put its own ids under their handles, and crashed with a
    TypeError: an internal error, exit 70.)"""
    author, victim = owing.due, other(owing.due)
    text = owing.copy(author, tmp_path / "author").turn(chooser("crafted"), owing.clock.now())
    data = yaml.safe_load(signing.split(text)[0])
    i = next(i for i, e in enumerate(data["entries"]) if isinstance(e.get("action"), dict))
    data["entries"][i]["action"]["spare"] = ["?tokugawa-s1", 1]
    crafted = signing.sign(docs.dump(data), owing.keys[author])
    words = f"entries[{i}]: action: a list holds a handle beside what is not a name"
    _refused(owing, victim, tmp_path, crafted, words, ExitStatus.REFUSED)


def test_a_takeback_whose_public_form_is_built_600_levels_deep_is_refused(owing, tmp_path):
    """The other side's modified client asks a takeback, its entry's change building the
    public form 50 levels at a time to 600 (no YAML document carries such a form whole:
    the loader stops far sooner), its hash written to match, the record signed with its
    key. The receiver refuses the file, its directory as it was. (Old code: the form was
    taken, and putting the receiver's owed openings into it recursed past the
    interpreter's limit: a RecursionError, an internal error, exit 70.)"""
    victim, asker, data = _takeback_asked(owing, tmp_path)
    entry = data["entries"][0]
    assert all(len(c) == 2 for c in entry["change"])  # the form whole, a key a change
    public = {key: value["="] for key, value in entry["change"]}
    path: list[str] = []
    for step in range(12):
        deep: dict = {}
        for _ in range(49):
            deep = {"a": deep}
        entry["change"].append([*path, f"x{step}", {"=": deep}])
        _set(public, [*path, f"x{step}"], copy.deepcopy(deep))
        path += [f"x{step}", *["a"] * 49]
    entry["public"] = files.public_hash(public)
    crafted = signing.sign(docs.dump(data), owing.keys[asker])
    _refused(
        owing, victim, tmp_path, crafted, "nested more than 16 levels deep", ExitStatus.REFUSED
    )


def _set(form: dict, path: list[str], value: object) -> None:
    for key in path[:-1]:
        form = form[key]
    form[path[-1]] = value
