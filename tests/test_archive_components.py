"""A game archive carries its component set (issue 27): every new game directory, the
referee's and both two-party sides', holds the three files it was created with, named by
the hash in its game.txt; `seki verify` plays the archive's copy, so a changed copy is
named, and a game played with a set this version does not ship still verifies."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from sekigahara_pbem.cli import app
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keystore import read_identity
from sekigahara_pbem.protocol import game
from sekigahara_pbem.protocol.component_files import (
    MANIFESTS,
    component_set,
    components_hash,
    game_components,
)
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.demo import run_demo
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.twoparty import demo as two_party_demo
from sekigahara_pbem.twoparty import files

NOW = "2026-11-22T12:00:00Z"
DATA = Path(str(resources.files("sekigahara_pbem.rules") / "data"))


def seki(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "SEKI_HOME": str(home)} if home is not None else None
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout


def refused(done: subprocess.CompletedProcess, status: int = 3) -> str:
    """The one line a refused `seki verify` prints; exit 3: the archive does not verify,
    a referee's or a two-party side's alike."""
    assert done.returncode == status, done.stdout
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def carries(root: Path, named: str) -> None:
    """The directory holds the packaged files byte for byte, and they are the set named."""
    for name in MANIFESTS:
        assert (root / "components" / f"{name}.yaml").read_bytes() == (
            DATA / f"{name}.yaml"
        ).read_bytes()
    assert components_hash(root / "components") == named == components_hash()


def test_every_new_game_directory_carries_the_set_its_game_txt_names(tmp_path):
    """Made by the commands a person types: a referee's game, and a two-party game's
    directories on both sides (the creator's and the joiner's)."""
    homes = {n: tmp_path / n for n in ("ref", "alice", "bob")}
    for name, home in homes.items():
        (tmp_path / f"{name}.pub").write_text(ok(seki("keys", "new", name, home=home)))
    players = ("--ishida", str(tmp_path / "alice.pub"), "--tokugawa", str(tmp_path / "bob.pub"))
    refereed = tmp_path / "g"
    ok(seki("game", "new", str(refereed), *players, "--key", "ref", home=homes["ref"]))
    carries(refereed, game.load(GameDir(refereed)).components)
    tracked = subprocess.run(["git", "-C", str(refereed), "ls-files", "components"],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert tracked.split() == [f"components/{n}.yaml" for n in sorted(MANIFESTS)]
    alice, bob = tmp_path / "a", tmp_path / "b"
    ok(seki("game", "new", str(alice), "--two-party", "--key", "alice", *players,
            home=homes["alice"]))  # fmt: skip
    ok(seki("join", str(alice / "game.txt"), "--key", "bob", "--out", str(bob), home=homes["bob"]))
    for side in (alice, bob):
        carries(side, files.read_game((side / "game.txt").read_text(), "game.txt").components)


@pytest.fixture
def archive(short_game) -> Path:
    """A short referee game with the packaged set, revealed by agreement, as `seki demo`
    plays it through the real files (conftest.py)."""
    return short_game[0] / "game"


def copy_of(archive: Path, tmp_path: Path) -> Path:
    target = tmp_path / "game"
    shutil.copytree(archive, target)
    return target


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("cards", "{id: mori-1, deck: ishida, clan: mori, kind: plain, bid: 1}",
         "{id: mori-1, deck: ishida, clan: mori, kind: plain, bid: 3}"),
        ("board", "[edo, hakone, highway]", "[edo, hakone, road]"),
        ("blocks", "\n", "\n# a comment is not part of the set\n"),
    ],
)  # fmt: skip
def test_verify_names_a_carried_file_changed_after_the_game(archive, tmp_path, name, old, new):
    """A bid or a road changed is named as the file that is not the set game.txt names;
    a comment is no part of the set (its hash is over the manifests' canonical JSON)."""
    root = copy_of(archive, tmp_path)
    path = root / "components" / f"{name}.yaml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    done = seki("verify", str(root))
    if name == "blocks":
        assert "verified" in ok(done)
        return
    line = refused(done)
    assert line.startswith(f"seki: does not verify: components/{name}.yaml: not the component set")


def test_a_hostile_carried_file_is_refused_naming_it(archive, tmp_path):
    """The copy is another party's: too large, YAML aliases (which grow a small file into
    a huge structure) and values JSON cannot hash are refused, never read whole."""
    root = copy_of(archive, tmp_path)
    path = root / "components" / "cards.yaml"
    path.write_text("a: &x [1, 2]\nb: [*x, *x, *x]\n")
    line = refused(seki("verify", str(root)))
    assert "components/cards.yaml line 2: not valid YAML (aliases are not allowed)" in line
    named = game.load(GameDir(root)).components
    path.write_bytes(b"#" * 1_000_001)
    with pytest.raises(Refusal, match=r"components/cards.yaml: larger than 1000000 bytes"):
        game_components(root, named)
    path.write_text("format: sekigahara-cards/2\nwhen: 2026-11-22\ncards: []\n")
    with pytest.raises(Refusal, match=r"components/cards.yaml: when: a date value"):
        game_components(root, named)
    path.unlink()
    with pytest.raises(Refusal, match=r"components/cards.yaml: file not found"):
        game_components(root, named)


def test_the_copy_is_read_again_when_it_changes(archive, tmp_path):
    """What is remembered between two reads is keyed by the files' content, not their
    path: a copy changed in between is read as it is now."""
    root = copy_of(archive, tmp_path)
    named = game.load(GameDir(root)).components
    path = root / "components" / "board.yaml"
    text = path.read_text()
    path.write_text(text.replace("name: Tanabe\n", "name: Tanabe-jo\n", 1))
    with pytest.raises(Refusal, match="components/board.yaml: not the component set"):
        game_components(root, named)
    path.write_text("# the printed board again\n" + text)
    assert game_components(root, named).locations["tanabe"].name == "Tanabe"


@pytest.fixture(scope="module")
def other_set(tmp_path_factory) -> Path:
    """The packaged set with one location renamed and one card's bid changed: a set no
    version of seki ships."""
    folder = tmp_path_factory.mktemp("other") / "set"
    shutil.copytree(DATA, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    board, cards = folder / "board.yaml", folder / "cards.yaml"
    board.write_text(board.read_text().replace("name: Osaka\n", "name: Naniwa-jō\n", 1))
    cards.write_text(
        cards.read_text().replace("{id: mori-1, deck: ishida, clan: mori, kind: plain, bid: 1}",
                                  "{id: mori-1, deck: ishida, clan: mori, kind: plain, bid: 3}")
    )  # fmt: skip
    assert component_set(folder).components.cards["mori-1"].bid == 3
    return folder


def test_an_archive_played_with_another_set_verifies_with_its_own_copy(other_set, tmp_path):
    """Played (and revealed, so verify replays every state and draw) with a set this
    version does not ship: `seki verify` replays it with the archive's copy. Without the
    copy, the archive says it does not carry the set it names."""
    assert components_hash(other_set) != components_hash()
    result = run_demo(tmp_path, "other", NOW, max_steps=12, components=other_set)
    assert not result.refused and result.records > 10
    root = tmp_path / "game"
    named = game.load(GameDir(root)).components
    assert named == components_hash(other_set) == components_hash(root / "components")
    assert game_components(root, named).locations["osaka"].name == "Naniwa-jō"
    checks.reveal(root, read_identity(tmp_path / "keys" / "referee.identity"), NOW, True)
    verified = ok(seki("verify", str(root)))
    assert "verified" in verified and "not revealed" not in verified  # every state replayed
    assert "Castles:\n    Ishida 4: Aizu, Gifu, Naniwa-jō, Ueda" in ok(seki("report", str(root)))
    cards = root / "components" / "cards.yaml"
    cards.write_text(cards.read_text().replace("bid: 3}", "bid: 1}", 1))
    line = refused(seki("verify", str(root)))
    assert line == "seki: does not verify: components: not the component set game.txt names\n"
    shutil.rmtree(root / "components")
    line = refused(seki("verify", str(root)))
    assert line.startswith(
        f"seki: does not verify: game.txt: made with component set {named[:16]}…"
    )
    assert "which the directory does not carry (components/)" in line


def test_a_two_party_game_played_with_another_set_verifies_on_both_sides(other_set, tmp_path):
    """Both sides' directories carry the set they played with; `seki verify` of each
    audits the game with it, and names a copy changed afterwards."""
    result = two_party_demo.run(tmp_path, "random", "other", components=other_set)
    assert result.result is not None
    for side in SIDES:
        root = tmp_path / side
        named = files.read_game((root / "game.txt").read_text(), "game.txt").components
        assert named == components_hash(root / "components") == components_hash(other_set)
        assert "verified a two-party game" in ok(seki("verify", str(root)))
    board = tmp_path / "ishida" / "components" / "board.yaml"
    board.write_text(board.read_text().replace("[edo, hakone, highway]", "[edo, hakone, road]"))
    line = refused(seki("verify", str(tmp_path / "ishida")))
    assert line == "seki: does not verify: components: not the component set game.txt names\n"


def _keep(n: int):
    """cards.yaml with only the first `n` cards of each deck."""

    def change(d: dict) -> None:
        seen: dict[str, int] = {}
        kept = []
        for c in d["cards"]:
            seen[c["deck"]] = seen.get(c["deck"], 0) + 1
            if seen[c["deck"]] <= n:
                kept.append(c)
        d["cards"] = kept

    return change


def _set(path: str, value: object):
    """A change of one field (`locations.0.name`) of a manifest."""

    def change(d: dict) -> None:
        *head, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        for step in head:
            d = d[step]
        d[last] = value

    return change


HUGE = "9" * 5000
# (case, manifest, change: a function of its parsed YAML or a text (old, new), the file
# and field the refusal names, the cause it names)
HOSTILE_SETS = [
    ("5000-digit mon", "blocks", ("mon: 3,", f"mon: {HUGE},"), "blocks.yaml: blocks[1].mon",
     "5000 characters"),
    ("5000-digit bid", "cards", ("bid: 7}", f"bid: {HUGE}}}"), "cards.yaml: cards[0].bid",
     "5000 characters"),
    ("hex digits past 4300 decimal", "board", ("pos: [226,", "pos: [0x" + "f" * 4000 + ","),
     "board.yaml: locations[0].pos[0]", "4002 characters"),
    ("sexagesimal giant", "board", ("count: 2}", "count: " + "1:" * 3000 + "0}"),
     "board.yaml: locations[3].random_blocks.count", "characters"),
    ("a date that is none", "cards", ("format: sekigahara-cards/2", "format: 2026-02-30"),
     "cards.yaml: format", "is not a date"),
    ("id with ../", "blocks", _set("blocks.0.id", "../../etc/passwd"), "blocks.yaml: blocks[0].id",
     "is not an id"),
    ("id with NUL", "cards", _set("cards.0.id", "loyalty\x00ishida-1"), "cards.yaml: cards[0].id",
     "is not an id"),
    ("id with a newline", "board", _set("locations.0.id", "tanabe\nx"),
     "board.yaml: locations[0].id", "is not an id"),
    ("id with a right-to-left mark", "blocks", _set("blocks.1.id", "tokugawa-3a\u200f"),
     "blocks.yaml: blocks[1].id", "is not an id"),
    ("id like a hidden handle", "blocks", _set("blocks.1.id", "?ishida-f1"),
     "blocks.yaml: blocks[1].id", "is not an id"),
    ("id 33 characters long", "cards", _set("cards.0.id", "a" * 33), "cards.yaml: cards[0].id",
     "at most 32"),
    ("id in capitals", "board", _set("locations.0.id", "Tanabe"), "board.yaml: locations[0].id",
     "is not an id"),
    ("id an off-map place", "board", _set("locations.0.id", "bag"),
     "board.yaml: locations[0].id", "a word the game uses"),
    ("a road to an unknown place", "board", ("[kyoto, osaka, highway]", "[kyoto, atlantis, road]"),
     "board.yaml: roads[", "unknown location 'atlantis'"),
    ("a road to a block", "board", ("[kyoto, osaka, highway]", "[kyoto, ukita-2a, road]"),
     "board.yaml: roads[", "unknown location 'ukita-2a'"),
    ("a disk at an unknown place", "blocks", _set("disks.0.location", "atlantis"),
     "blocks.yaml: disks[0].location", "unknown location"),
    ("a card of a location's clan", "cards", _set("cards.3.clan", "osaka"),
     "cards.yaml: cards[3].clan", "unknown clan"),
    ("a block of no clan", "blocks", _set("blocks.0.clan", "oda"), "blocks.yaml: blocks[0].clan",
     "unknown clan"),
    ("a board of size 0", "board", _set("size", [0, 0]), "board.yaml: size[0]", "must be 1 to"),
    ("a place off the board", "board", _set("locations.0.pos", [5000, 10]),
     "board.yaml: locations[0].pos[0]", "must be 0 to 3354"),
    ("a board with no locations", "board", _set("locations", []), "board.yaml: locations",
     "expected 1 to"),
    ("markup in a place name", "board", _set("locations.3.name", "<img src=x onerror=alert(1)>"),
     "board.yaml: locations[3].name", "U+003C"),
    ("a bidi override in a clan name", "blocks", _set("clans.0.name", "Toku\u202egawa"),
     "blocks.yaml: clans[0].name", "U+202E"),
    ("a newline in a disk name", "blocks", _set("disks.0.name", "Hideyori\nseki: verified"),
     "blocks.yaml: disks[0].name", "U+000A"),
    ("a terminal escape in the board name", "board", _set("name", "\x1b[2J Sekigahara"),
     "board.yaml: name", "U+001B"),
    ("an unknown format tag", "cards", _set("format", "sekigahara-cards/99"), "cards.yaml: format",
     "is not one of"),
    ("no format tag", "blocks", _set("format", None), "blocks.yaml: format", "missing"),
    ("one card a deck", "cards", _keep(1), "cards.yaml: cards", "holds at least 5"),
    ("a misspelt key", "board", _set("locations.1.castel", "gold"), "board.yaml: locations[1]",
     "unknown field 'castel'"),
    ("bid 0", "cards", _set("cards.0.bid", 0), "cards.yaml: cards[0].bid", "must be 1 to 99"),
    ("a week past the last", "board", _set("recruitment_track.99", 1),
     "board.yaml: recruitment_track", "must be 1 to 7"),
    ("a Mori Box with no way out", "board", _set("boxes.mori.enters_at", None),
     "board.yaml: boxes.mori.enters_at", "missing"),
    ("a symbol in capitals", "blocks", ("setup: gold_square", "setup: Gold_Square"),
     "blocks.yaml: blocks[", "is not an id"),
    ("a bid of NaN", "cards", ("bid: 7}", "bid: .nan}"), "cards.yaml: cards[0].bid",
     "expected int, got float"),
    ("blocks a mapping", "blocks", _set("blocks", {"a": 1}), "blocks.yaml: blocks",
     "expected list, got dict"),
]  # fmt: skip


def _canonical_hash(texts: list[str]) -> str | None:
    """The hash a game.txt names for these manifests (component_files: SHA-256 of their
    canonical JSON), worked out here, not by the code under test; None where Python
    cannot (a 5,000-digit integer)."""
    try:
        docs = {n: yaml.safe_load(t) for n, t in zip(MANIFESTS, texts, strict=True)}
        canon = json.dumps(docs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (ValueError, TypeError, yaml.YAMLError):
        return None
    return hashlib.sha256(canon.encode()).hexdigest()


def _hostile_archive(archive: Path, tmp_path: Path, manifest: str, change) -> Path:
    """A copy of the archive carrying a changed set, its game.txt naming that set and
    signed again by the referee: an archive made to be hostile, so `seki verify` must
    read the set to check it."""
    root = copy_of(archive, tmp_path)
    path = root / "components" / f"{manifest}.yaml"
    if isinstance(change, tuple):
        old, new = change
        assert old in path.read_text(encoding="utf-8")
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    else:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(doc)
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    texts = [(root / "components" / f"{n}.yaml").read_text(encoding="utf-8") for n in MANIFESTS]
    named = _canonical_hash(texts)
    if named is not None:
        definition = root / "game.txt"
        body, _ = signing.split(definition.read_text())
        old_hash = game.load(GameDir(root)).components
        referee = read_identity(archive.parent / "keys" / "referee.identity")
        definition.write_text(signing.sign(body.replace(old_hash, named), referee))
        assert game.load(GameDir(root)).components == named
    return root


def one_line(result: Result, status: int) -> str:
    """The one line a refused command prints, as `seki` runs it (click's runner on the
    real command tree): no exception but the exit."""
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr


@pytest.mark.parametrize(
    ("manifest", "change", "field", "cause"),
    [pytest.param(*case[1:], id=case[0]) for case in HOSTILE_SETS],
)
def test_a_hostile_set_is_refused_naming_its_file_and_field(
    archive, tmp_path, manifest, change, field, cause
):
    """Each set is refused with one line naming the file and the field, by `seki
    components check` (exit 1) and by `seki verify` of an archive that carries it and
    whose game.txt names it (exit 3): never an internal error, never loaded."""
    root = _hostile_archive(archive, tmp_path, manifest, change)
    runner = CliRunner()
    line = one_line(runner.invoke(app, ["components", "check", str(root / "components")]), 1)
    assert line.startswith(f"seki: {field}") and cause in line, line
    line = one_line(runner.invoke(app, ["verify", str(root)]), 3)
    assert line.startswith(f"seki: does not verify: components/{field}") and cause in line, line


@pytest.mark.parametrize("case", [0, 1], ids=["blocks.yaml", "cards.yaml"])
def test_a_5000_digit_number_is_refused_by_verify_and_report(archive, tmp_path, case):
    """The issue's two: a 5,000-digit integer in blocks.yaml or cards.yaml made `seki
    verify` and `seki report` exit 70 (Python will not turn it into text). In a real
    process, through `seki`'s own entry point: a refusal naming the field, exit 3 and 1."""
    _name, manifest, change, field, cause = HOSTILE_SETS[case]
    root = _hostile_archive(archive, tmp_path, manifest, change)
    line = refused(seki("verify", str(root)))
    assert line.startswith(f"seki: does not verify: components/{field}: a number written with "
                           "5000 characters: at most 12"), line  # fmt: skip
    line = refused(seki("report", str(root)), 1)
    assert line.startswith(f"seki: components/{field}: a number written"), line
