"""The play-by-email protocol end to end: a whole demo game through the real files, then
secrecy of every packet, tamper detection, refusals that leave the game unchanged, the
lock, and recovery from a step killed half-way."""

from __future__ import annotations

import base64
import json
import random
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from sekigahara_pbem.crypto import sealing, signing
from sekigahara_pbem.crypto.keystore import read_identity
from sekigahara_pbem.protocol import chain, game, packets, turns
from sekigahara_pbem.protocol.store import GameDir, StoreError, locked
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.referee.records import context, writer
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.invariants import hidden_from
from sekigahara_pbem.rules.vocab import SIDES

NOW = "2026-11-22T12:00:00Z"
QUOTED = re.compile(r'"([^"\\]*)"')


def _identities(root: Path) -> dict:
    return {n: read_identity(root / "keys" / f"{n}.identity") for n in ("referee", *SIDES)}


def _copy(demo, tmp_path: Path) -> Path:
    root, _ = demo
    target = tmp_path / "game"
    shutil.copytree(root / "game", target)
    return target


def test_demo_game_ends_revealed_and_verified(demo):
    root, result = demo
    assert result.result["winner"] in SIDES
    report = checks.verify(root / "game")
    assert report.revealed and report.records == result.records > 50
    assert report.packets == 2 * report.records


def test_no_packet_shows_the_other_sides_secrets(demo, comp):
    """Every packet's view and options, opened with its recipient's key, against every id
    the recipient may not know at that point (the full state comes from the reveal)."""
    root, result = demo
    ids = _identities(root)
    gd = GameDir(root / "game")
    definition = game.load(gd)
    secrets = game.open_secrets(gd, definition, ids["referee"])
    checked = 0
    for seq in range(1, result.records + 1, 3):
        state = chain.open_state(definition, secrets, seq, gd.sealed(seq).read_text())
        for side in SIDES:
            text = gd.packet(seq, side).read_text()
            opened = packets.open_packet(definition, text, ids[side], "p")
            hidden = hidden_from(state, comp, side)
            seen = set(QUOTED.findall(repr((opened.view, opened.options)).replace("'", '"')))
            assert not hidden & seen, (seq, side, sorted(hidden & seen)[:5])
            public_part = text.split("openings:")[0] + text.split("section:")[1]
            public_hidden = hidden_from(state, comp, None)
            assert not {w for w in public_hidden if w in public_part}, (seq, side)
            checked += 1
        record = chain.read_record(gd, definition, seq)
        shown = repr(record.body["events"])
        for opening in record.body["openings"]:
            kind, item = opening["value"][:2]
            assert kind == "sealed" or f"'{item}'" in shown, (seq, opening["value"])
    assert checked > 100


def test_a_section_cut_into_another_packet_does_not_open(demo):
    root, _ = demo
    ids = _identities(root)
    gd = GameDir(root / "game")
    definition = game.load(gd)
    first, later = gd.packet(3, "ishida").read_text(), gd.packet(9, "ishida").read_text()
    section = re.search(r"section: \|\n((?:  .*\n)+)", first).group(1)
    body, _ = signing.split(later)
    forged = re.sub(r"section: \|\n((?:  .*\n)+)", lambda _: "section: |\n" + section, body)
    resigned = signing.sign(forged, ids["referee"])  # even with a valid referee signature
    with pytest.raises(Refusal, match="belongs to another packet"):
        packets.open_packet(definition, resigned, ids["ishida"], "forged")


@pytest.mark.parametrize(
    "name", ["game.txt", "joins/ishida.txt", "reveal.txt", "records/*", "turns/*", "packets/*",
             "sealed/*"],
)  # fmt: skip
def test_a_single_flipped_byte_anywhere_is_detected(short_game, tmp_path, name):
    """Three files of each kind, four flips each: every one is a discrepancy. The short
    game holds every kind of file a whole one does (its records, turn files, packets and
    sealed states are checked by the same code, whatever their number), and each flip
    costs a verify of the archive: the whole demo game made this test four minutes."""
    target = _copy(short_game, tmp_path)
    files = sorted(target.glob(name))
    rnd = random.Random(name)
    for path in rnd.sample(files, min(3, len(files))):
        original = path.read_bytes()
        for _ in range(4):
            at = rnd.randrange(len(original))
            flipped = bytearray(original)
            flipped[at] ^= 1 << rnd.randrange(7)
            path.write_bytes(bytes(flipped))
            with pytest.raises(checks.Discrepancy):
                checks.verify(target)
        path.write_bytes(original)
    checks.verify(target)


def _game(tmp_path: Path) -> tuple[Path, dict, game.Definition]:
    root = tmp_path / "g"
    from sekigahara_pbem.crypto.keys import generate
    from sekigahara_pbem.protocol import joins
    from sekigahara_pbem.protocol.component_files import components_hash

    ids = {n: generate(n) for n in ("ref", "alice", "bob")}
    definition = game.create(
        root, "g", ids["ref"], {"ishida": ids["alice"].public, "tokugawa": ids["bob"].public},
        components_hash(), {}, NOW,
    )  # fmt: skip
    for name, text in joins.opening(definition, {"ishida": ids["alice"], "tokugawa": ids["bob"]}):
        (outcome,) = referee.adjudicate(root, ids["ref"], [(name, text.encode())], NOW)
        assert outcome.accepted, outcome.message
    return root, ids, definition


def test_refused_inputs_leave_the_game_unchanged_and_are_kept(tmp_path):
    root, ids, definition = _game(tmp_path)
    gd = GameDir(root)
    opened = packets.open_packet(definition, gd.packet(1, "ishida").read_text(), ids["alice"], "p")
    card = opened.options[0]["card"]

    def turn(side, answers, actions, who):
        return signing.sign(turns.body(definition, side, answers, actions), ids[who]).encode()

    good = turn("ishida", 1, [{"type": "bid", "card": card}], "alice")
    elsewhere = replace(definition, game_id="other")
    bad = {
        "wrong side": turn("tokugawa", 1, [{"type": "bid", "card": card}], "alice"),
        "wrong game": signing.sign(
            turns.body(elsewhere, "ishida", 1, [{"type": "bid", "card": card}]), ids["alice"]
        ).encode(),
        "unknown answers": turn("ishida", 7, [{"type": "bid", "card": card}], "alice"),
        "illegal": turn("ishida", 1, [{"type": "bid", "card": "no-such-card"}], "alice"),
        "wrong step": turn("ishida", 1, [{"type": "level", "level": "total"}], "alice"),
        "unsigned": turns.body(definition, "ishida", 1, [{"type": "bid", "card": card}]).encode(),
        "garbage": b"\xff\xfe not a document",
        "hostile yaml": signing.sign("a: &a [*a, *a]\n", ids["alice"]).encode(),
        "huge": b"x" * 2_000_000,
    }
    head = (root / "records").iterdir()
    before = sorted(p.name for p in head)
    for name, data in bad.items():
        (outcome,) = referee.adjudicate(root, ids["ref"], [(name, data)], NOW)
        assert not outcome.accepted, name
        assert "\n" not in outcome.message
        assert sorted(p.name for p in (root / "records").iterdir()) == before, name
    assert len(list((root / "rejected").glob("*.sealed"))) == len(bad)
    sealed = (root / "rejected" / "0004-illegal.sealed").read_text()
    assert "no-such-card" not in sealed  # kept sealed: the public archive shows nothing
    definition = game.load(GameDir(root))
    secrets = game.open_secrets(GameDir(root), definition, ids["ref"])
    context = sealing.SealContext(definition.game_id, 0, chain.STATE_RECIPIENT, "rejected")
    kept = json.loads(sealing.open_text("".join(sealed.split()), secrets.state_key, context))
    assert kept["name"] == "illegal" and "6.3" in kept["reason"]
    assert base64.b64decode(kept["data"]) == bad["illegal"]
    (ok,) = referee.adjudicate(root, ids["ref"], [("good", good)], NOW)
    assert ok.accepted, ok.message
    (replayed,) = referee.adjudicate(root, ids["ref"], [("again", good)], NOW)
    assert not replayed.accepted
    assert gd.last_seq() == 2


def test_a_second_adjudication_is_refused_while_one_runs(tmp_path):
    root, ids, _ = _game(tmp_path)
    with locked(root), pytest.raises(StoreError, match="locked"):
        referee.adjudicate(root, ids["ref"], [], NOW)


@pytest.mark.parametrize("kill_at", ["turns", "sealed", "packets", "records", "public", "commit"])
def test_a_step_killed_anywhere_leaves_a_good_state_and_reruns(tmp_path, monkeypatch, kill_at):
    """Kill the adjudication as it writes each kind of file (or at its git commit): the
    last good record stays current and readable, and running again succeeds."""
    root, ids, definition = _game(tmp_path)
    gd = GameDir(root)
    answer = Bot(ids["alice"], definition, "kill").answer(gd.packet(1, "ishida").read_text(), "p")
    real_write, real_commit = writer.write_atomic, context.git_commit

    def write(path, data):
        if path.parent.name == kill_at:
            raise KeyboardInterrupt(f"killed writing {path.name}")
        real_write(path, data)

    def commit(root_, message, signer=None):
        if kill_at == "commit" and message.startswith("record 2"):
            raise KeyboardInterrupt("killed at the commit")
        real_commit(root_, message, signer)

    monkeypatch.setattr(writer, "write_atomic", write)
    monkeypatch.setattr(context, "git_commit", commit)
    with pytest.raises(KeyboardInterrupt):
        referee.adjudicate(root, ids["ref"], [("t", answer.encode())], NOW)
    monkeypatch.setattr(writer, "write_atomic", real_write)
    monkeypatch.setattr(context, "git_commit", real_commit)
    game_ = referee.open_game(root, ids["ref"])
    record, _ = referee.current(game_)
    if kill_at in ("public", "commit"):  # the record was in place: the step happened
        assert record.seq == 2
    else:
        assert record.seq == 1
        (outcome,) = referee.adjudicate(root, ids["ref"], [("t", answer.encode())], NOW)
        assert outcome.accepted, outcome.message
    referee.adjudicate(root, ids["ref"], [], NOW)  # commits whatever an interruption left
    assert gd.last_seq() == 2
    assert checks.verify(root).records == 2
    import subprocess

    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True)
    assert status.stdout.strip() == b""


def test_the_archived_demo_game_verifies():
    archive = Path(__file__).parent.parent / "games" / "demo"
    report = checks.verify(archive)
    assert report.revealed and report.result is not None


def test_a_turn_file_survives_the_mail(tmp_path):
    """CRLF line endings, trailing spaces, pasted into a mail body between other text, and a
    quoted-printable round trip: the referee still accepts it."""
    import quopri

    root, ids, definition = _game(tmp_path)
    gd = GameDir(root)
    signed = Bot(ids["alice"], definition, "mail").answer(gd.packet(1, "ishida").read_text(), "p")
    mangled = "\r\n".join(line + "  " for line in signed.splitlines())
    mail = f"Hello referee,\r\nmy bid:\r\n\r\n{mangled}\r\n\r\nregards, Alice\r\n"
    through = quopri.decodestring(quopri.encodestring(mail.encode("utf-8")))
    (outcome,) = referee.adjudicate(root, ids["ref"], [("mail.eml.txt", through)], NOW)
    assert outcome.accepted, outcome.message


def test_turn_check_finds_illegal_orders_offline(tmp_path, comp):
    from sekigahara_pbem.protocol.checking import problems_with

    root, ids, definition = _game(tmp_path)
    opened = packets.open_packet(
        definition, GameDir(root).packet(1, "ishida").read_text(), ids["alice"], "p"
    )
    card = opened.options[0]["card"]
    not_held = next(
        c for c in ("mori-1", "mori-2", "mori-3") if c not in opened.view["own"]["hand"]
    )

    def check(actions, answers=1):
        turn = turns.Turn("ishida", answers, actions, "")
        return [str(p) for p in problems_with(definition, turn, opened, comp)]

    assert check([{"type": "bid", "card": card}]) == []
    assert "6.3" in check([{"type": "bid", "card": not_held}])[0]
    assert "6.3" in check([{"type": "level", "level": "total"}])[0]
    twice = check([{"type": "bid", "card": card}, {"type": "bid", "card": card}])
    assert "no longer your decision" in twice[0]
    assert "answers" in check([{"type": "bid", "card": card}], answers=5)[0]


def test_commitments_hide_every_item_until_the_rules_show_it(demo, comp):
    """No public file holds an unopened leaf or its salt (so guessing an item and hashing it
    gets nowhere), and an opening that names another item than the committed one fails."""
    from sekigahara_pbem.protocol import commitments

    root, result = demo
    ids = _identities(root)
    gd = GameDir(root / "game")
    definition = game.load(gd)
    secrets = game.open_secrets(gd, definition, ids["referee"])
    public = "".join(p.read_text() for p in sorted((gd.root / "records").iterdir()))
    public += "".join(p.read_text().split("section:")[0] for p in gd.root.glob("packets/*"))
    opened = {o["salt"] for seq in range(1, result.records + 1)
              for o in chain.read_record(gd, definition, seq).body["openings"]}  # fmt: skip
    for seq in range(1, result.records + 1, 25):
        state = chain.open_state(definition, secrets, seq, gd.sealed(seq).read_text())
        for leaf in commitments.leaves(state, secrets.commit_key, seq):
            assert leaf.commitment not in public
            assert leaf.salt.hex() in opened or leaf.salt.hex() not in public
    record = next(
        chain.read_record(gd, definition, s)
        for s in range(2, result.records + 1)
        if chain.read_record(gd, definition, s).body["openings"]
    )
    previous_root = chain.read_record(gd, definition, record.seq - 1).body["commitments"]["root"]
    opening = record.body["openings"][0]
    assert commitments.check_opening(opening, previous_root)
    forged = {**opening, "value": [opening["value"][0], "ii-naomasa", opening["value"][2]]}
    assert not commitments.check_opening(forged, previous_root)
