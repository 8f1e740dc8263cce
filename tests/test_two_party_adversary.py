"""Two-party mode against the other side's own client (issue 28). Each test mounts an
attack of a modified client, or of a hostile archive, through the real files: real keys,
records signed by the attacker's key, each side in its own directory, and the commands a
player types. The side attacked refuses at once with a named refusal, its directory as it
was, and its game goes on."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.cli import app
from sekigahara_pbem.commands.common import utc_now
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.engine import handle
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.state import EDITION, FIRST_EDITION
from sekigahara_pbem.rules.vocab import SIDES, Malformed, RuleViolation, other
from sekigahara_pbem.twoparty import GAME_FORMAT, files
from sekigahara_pbem.twoparty import side as sides
from sekigahara_pbem.twoparty.exchange import Cheat, Entry
from sekigahara_pbem.twoparty.match import player_chooser

NOW = "2026-11-23T06:00:00Z"


class Game:
    """A new two-party game: each side in its own directory under `root` (sides.create,
    as `seki game new --two-party` and `seki join` make them), both joins taken in, and
    a heuristic player for each side."""

    def __init__(self, root: Path):
        self.comp = load_components()
        self.keys = {s: generate(s) for s in SIDES}
        publics = {s: k.public for s, k in self.keys.items()}
        text = files.make_game("adv", components_hash(), {}, publics, self.keys["ishida"])
        self.sides = {s: sides.create(root / s, text, self.keys[s], NOW) for s in SIDES}
        joins = {s: docs.read_capped(self.sides[s].records()[0]) for s in SIDES}
        for s in SIDES:
            deliver(self.sides[other(s)], joins[s])
        self.choose = {s: player_chooser(make_player("heuristic", self.comp, {}, s)) for s in SIDES}

    def turn(self) -> str:
        """The side whose record comes next."""
        return self.sides["ishida"].whose_turn()

    def play(self, records: int) -> None:
        """`records` records, each taken in by the other side."""
        for _ in range(records):
            turn = self.turn()
            deliver(self.sides[other(turn)], self.sides[turn].turn(self.choose[turn], NOW))

    def play_until(self, ready) -> str:
        """Records until `ready(party, side)` holds of the side whose turn it is (its
        knowledge, before it writes); that side."""
        for _ in range(40):
            if ready(self.sides[self.turn()].load(), self.turn()):
                return self.turn()
            self.play(1)
        raise AssertionError("the game never came to the case the test needs")

    def forger(self, side: str, root: Path) -> sides.Side:
        """A copy of `side`'s directory for its modified client to write a forged record
        in, so that the side itself can still send the honest one after."""
        shutil.copytree(self.sides[side].root, root)
        return sides.open_side(root, self.keys[side])


def deliver(side: sides.Side, text: str, now: str = NOW) -> None:
    """A record taken in by `side`, as `seki play DIR -r FILE` takes it, at `now`."""
    side.receive(text, "mail", now)


def take_reveal(side: sides.Side, text: str) -> None:
    """The other side's reveal taken in by `side`, as `seki play DIR -r FILE` takes it."""
    side.take_reveal(text, "reveal", NOW)


def forge(side: sides.Side, entries) -> str:
    """A record of the side's next number, signed with its key, holding `entries` (made
    from its knowledge) and its commitments and randomness as its engine makes them."""
    party = side.load()
    base = party.agreed
    party.seq += 1
    record = party._record(entries(party))
    return side._write_record(party, record, base, {}, NOW)


def computes_the_bids(party, side: str) -> bool:
    """Whether the side is to compute both sealed bids (6.3): the other side bid last and
    held its bid for it, having seen this side's bid only as a committed handle."""
    return (
        party.held is not None and party.held[0] == other(side) and party.held[1]["type"] == "bid"
    )


def body(text: str) -> dict:
    """A signed document's body, as data (its signature not checked)."""
    return yaml.safe_load(signing.split(text)[0])


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def seki(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args], capture_output=True, text=True, **kwargs
    )


# -- commitments ---------------------------------------------------------------------------


def test_a_commitment_once_made_cannot_be_replaced_so_a_sealed_bid_stays(tmp_path):
    """6.3: one side bids first (its card a committed handle); the other bids last and
    opens its card; the first computes both, so it has seen the other's bid. Its modified
    client then swaps its bid for the best card of its hand: the record commits both
    handles again and opens the bid's handle as the better card, which matches the new
    commitment. The first commitment stands, so the other side refuses the record at
    once. (Old code: the record was taken in, and the cheat's bid became the card it
    chose after seeing the other's.)"""
    game = Game(tmp_path)
    side = game.play_until(computes_the_bids)
    cheat = game.sides[side]
    party = cheat.load()
    bid = party.public["sealed"][side]
    reals = party.book.reals()
    hand = [h for h in party.public["cards"][side]["hand"] if h != bid]
    best = max(hand, key=lambda h: game.comp.cards[reals[h]].bid)
    party.book.own[reals[bid]], party.book.own[reals[best]] = best, bid
    party.fresh |= {bid, best}
    base = party.agreed
    text = cheat._write_record(party, party.write(game.choose[side]), base, {}, NOW)
    assert reals[best] == body(text)["entries"][0]["opened"][bid][0]
    victim = game.sides[other(side)]
    before = snapshot(victim.root)
    with pytest.raises(Cheat, match="commits .* again: a commitment cannot be replaced"):
        deliver(victim, text)
    assert snapshot(victim.root) == before


def test_a_record_may_commit_only_its_own_handles(tmp_path):
    """A commitment to a handle of the reader's own items (which it would then take as
    shown to it by the other side) is refused."""
    game = Game(tmp_path)
    side = game.turn()
    theirs = next(iter(game.sides[other(side)].load().book.own.values()))
    data = body(forge(game.forger(side, tmp_path / "forger"), lambda p: []))
    data["commitments"][theirs] = "0" * 64
    text = signing.sign(docs.dump(data), game.keys[side])
    with pytest.raises(Cheat, match=f"is not a handle of {side}"):
        deliver(game.sides[other(side)], text)


# -- rematches -----------------------------------------------------------------------------


class Players:
    """People at the commands: each with a home holding their key (SEKI_HOME)."""

    def __init__(self, root: Path):
        self.root, self.runner = root, CliRunner()
        self.keys = {"alice": generate("alice"), "bob": generate("bob")}
        for name, key in self.keys.items():
            write_identity(root / name, key)
            (root / f"{name}.pub").write_text(key.public.line() + "\n")
        self.pubs = ("--ishida", str(root / "alice.pub"), "--tokugawa", str(root / "bob.pub"))

    def seki(self, who: str, *args: str, code: int = 0) -> str:
        result = self.runner.invoke(app, list(args), env={"SEKI_HOME": str(self.root / who)})
        assert result.exit_code == code, (args, result.output)
        assert "Traceback" not in result.output
        return result.output


def test_a_rematch_shares_no_secret_with_the_game_before(tmp_path):
    """Alice makes a game, and later a rematch with the same id, keys and options; in
    the first she reveals her secret (by agreement). Bob, holding that reveal, tries it
    on the rematch: it is not the secret Alice's rematch join commits to, so her hand
    and blocks there stay hers. (Old code: the two game.txt were the same bytes, so the
    reveal was her rematch secret too.)"""
    t = Players(tmp_path)
    for name in ("first", "rematch"):
        t.seki("alice", "game", "new", str(tmp_path / name / "a"), "--two-party", "--key",
               "alice", "--id", "same", *t.pubs)  # fmt: skip
        t.seki("bob", "join", str(tmp_path / name / "a" / "game.txt"), "--key", "bob", "--out",
               str(tmp_path / name / "b"))  # fmt: skip
    first, rematch = tmp_path / "first", tmp_path / "rematch"
    games = [
        files.read_game((d / "a" / "game.txt").read_text(), "game.txt") for d in (first, rematch)
    ]
    assert games[0].game_id == games[1].game_id and games[0].options == games[1].options
    t.seki("alice", "play", str(first / "a"), "--key", "alice", "-r",
           str(first / "b" / "records" / "0001-tokugawa.txt"))  # fmt: skip
    t.seki("alice", "reveal", str(first / "a"), "--key", "alice", "--force")
    revealed = bytes.fromhex(body((first / "a" / "reveals" / "ishida.txt").read_text())["secret"])
    joins = [body((d / "a" / "records" / "0000-ishida.txt").read_text()) for d in (first, rematch)]
    assert files.secret_commitment(games[0], "ishida", revealed) == joins[0]["secret_commitment"]
    assert files.secret_commitment(games[1], "ishida", revealed) != joins[1]["secret_commitment"]


def test_a_game_without_its_nonce_is_refused(tmp_path):
    """A modified client's game.txt without a nonce (which would make a rematch the same
    game) is refused where it is read."""
    keys = {s: generate(s) for s in SIDES}
    data = {
        "format": GAME_FORMAT,
        "game": "g",
        "components": components_hash(),
        "options": {},
        "players": {s: keys[s].public.line() for s in SIDES},
    }
    text = signing.sign(docs.dump(data), keys["ishida"])
    with pytest.raises(Refusal, match="nonce: missing"):
        files.read_game(text, "game.txt")


# -- the end of the chain ------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A game played over a few records and ended by a resignation, both reveals taken
    in by both sides: each side's directory verifies."""
    root = tmp_path_factory.mktemp("finished")
    game = Game(root)
    game.play(5)
    loser = game.turn()
    deliver(game.sides[other(loser)], game.sides[loser].resign(NOW))
    for s in SIDES:
        take_reveal(game.sides[other(s)], game.sides[s].reveal(NOW))
    for s in SIDES:
        sides.verify(root / s)
    return root


def test_a_chain_cut_short_does_not_verify(finished, tmp_path):
    """The side that resigned cuts its resignation (the last record) from the archive it
    shows: the reveals name that record as the last their authors held, so `seki verify`
    refuses the archive: it does not verify (exit 3), as a referee's archive cut short.
    (Old code: it verified, a game without a result; then it was refused with exit 1.)"""
    root = tmp_path / "archive"
    shutil.copytree(finished / "ishida", root)
    assert seki("verify", str(root)).returncode == 0
    last = sorted((root / "records").iterdir())[-1]
    last.unlink()
    done = seki("verify", str(root))
    assert done.returncode == 3, done.stdout
    n = int(last.name[:4])
    assert f"the reveal names record {n} as its author's last, and it is not on file" in done.stderr


def test_a_reveal_naming_a_record_not_on_file_is_not_taken(tmp_path):
    """The other side's reveal must name a record this side holds, as it holds it."""
    game = Game(tmp_path)
    game.play(1)
    reveal = game.sides["tokugawa"].reveal(NOW)  # names the last record
    forger = game.forger("ishida", tmp_path / "forger")
    last = forger.records()[-1]
    last.unlink()
    with pytest.raises(Refusal, match=f"names record {int(last.name[:4])} as its author's last"):
        take_reveal(forger, reveal)
    take_reveal(game.sides["ishida"], reveal)


# -- held entries --------------------------------------------------------------------------


def _refused_held(party) -> list[Entry]:  # an action the rules refuse now (6.3 asks a bid)
    return [Entry(party.side, {"type": "choose_first", "first": party.side}, -1, {}, None)]


def _nothing_held(party) -> list[Entry]:  # steps -1 on no action at all
    return [Entry(party.side, None, -1, {}, None)]


def _held_midway(party) -> list[Entry]:  # a held action with an entry after it
    return [*_refused_held(party), Entry(party.side, None, 0, {}, party.public)]


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        (_refused_held, "held action is refused: 6.3"),
        (_nothing_held, "held action is refused: type: expected a mapping"),
        (_held_midway, "held action does not end its record"),
    ],
    ids=["illegal", "none", "midway"],
)
def test_a_held_action_is_checked_when_its_record_is_taken(tmp_path, entries, reason):
    """A modified client holds (steps: -1) an action for the other side to compute that
    the other side's engine cannot take, or holds one and goes on after it. The other
    side refuses the record when it takes it in, and takes the honest record after. (Old
    code: it took the first two in, and every later turn of the side attacked failed,
    with the rules' refusal of the held action or a malformed action; the third it
    refused only because the entry after tried the held action at once.)"""
    game = Game(tmp_path)
    side = game.turn()
    text = forge(game.forger(side, tmp_path / "forger"), entries)
    victim = game.sides[other(side)]
    before = snapshot(victim.root)
    with pytest.raises(Cheat, match=reason):
        deliver(victim, text)
    assert snapshot(victim.root) == before
    game.play(3)  # the game goes on


def test_a_record_that_leaves_the_other_sides_held_action_uncomputed_is_refused(tmp_path):
    """One side bids last and holds its bid for the other to compute both (6.3). The
    other's modified client sends a record without computing it. (Old code: the record
    was taken in, and every later turn of the side that held its bid was an internal
    error: its own copy cannot compute the other's bid.)"""
    game = Game(tmp_path)
    side = game.play_until(computes_the_bids)
    text = forge(game.forger(side, tmp_path / "forger"), lambda party: [])
    victim = game.sides[other(side)]
    before = snapshot(victim.root)
    with pytest.raises(Cheat, match="does not compute the action this side held"):
        deliver(victim, text)
    assert snapshot(victim.root) == before
    game.play(3)


# -- what a record may hold ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [(datetime.date(2026, 11, 23), "date"), ({"a", "b"}, "set"), (b"\x00\x01", "bytes")],
)
def test_a_record_holding_yaml_dates_sets_or_bytes_is_refused(tmp_path, value, kind):
    """YAML reads dates, sets and bytes, which no record holds. A modified client signs a
    record whose change sets one; the other side refuses it, naming it, and takes the
    honest record after. (Old code: TypeError, an internal error, on every try.)"""
    game = Game(tmp_path)
    for _ in range(10):
        turn = game.turn()
        honest = game.sides[turn].turn(game.choose[turn], NOW)
        data = body(honest)
        if data["entries"]:
            break
        deliver(game.sides[other(turn)], honest)
    data["entries"][0]["change"].append(["week", {"=": value}])
    forged = signing.sign(yaml.safe_dump(data, sort_keys=False), game.keys[turn])
    victim = game.sides[other(turn)]
    before = snapshot(victim.root)
    with pytest.raises(Refusal, match=f"holds a {kind}: a document holds plain data only"):
        deliver(victim, forged)
    assert snapshot(victim.root) == before
    deliver(victim, honest)


def test_verify_refuses_archive_files_that_are_not_utf8(finished, tmp_path):
    """A received archive whose game.txt, or one of whose records, is not UTF-8: `seki
    verify` names the file, and the archive does not verify (exit 3, as a referee's).
    (Old code: an internal error; then a plain refusal, exit 1.)"""
    record = sorted((finished / "ishida" / "records").iterdir())[3].name
    for name in ("game.txt", f"records/{record}"):
        root = tmp_path / name.replace("/", "-")
        shutil.copytree(finished / "ishida", root)
        path = root / name
        path.write_bytes(path.read_bytes().replace(b"game: adv", b"game: a\xffdv", 1))
        done = seki("verify", str(root))
        assert done.returncode == 3, done.stderr
        assert done.stderr.startswith("seki: ") and f"{path.name}: not UTF-8 text" in done.stderr


@pytest.mark.skipif(os.name != "posix", reason="a sparse file and an address-space limit")
def test_verify_reads_no_record_whole_beyond_the_size_limit(finished, tmp_path):
    """A 3 GB record in a received archive (a sparse file): `seki verify`, held to 2 GB
    of address space, refuses it at once, naming it: the archive does not verify (exit 3).
    (Old code: it read the file whole, and ran out of memory.)"""
    import resource

    root = tmp_path / "archive"
    shutil.copytree(finished / "ishida", root)
    record = sorted((root / "records").iterdir())[3]
    with open(record, "wb") as f:
        f.truncate(3_000_000_000)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))

    done = seki("verify", str(root), preexec_fn=limited, timeout=120)
    assert done.returncode == 3, done.stderr
    assert f"{record.name}: larger than 1000000 bytes" in done.stderr


# -- the game's options --------------------------------------------------------------------


def _game_text(options: dict, keys: dict) -> str:
    """game.txt as a modified client could sign it: the options unchecked."""
    data = {
        "format": GAME_FORMAT,
        "game": "opts",
        "nonce": "ab" * 32,
        "components": components_hash(),
        "options": options,
        "players": {s: keys[s].public.line() for s in SIDES},
    }
    return signing.sign(docs.dump(data), keys["ishida"])


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"fog_of_war": True}, "options.fog_of_war: unknown game option"),
        ({EDITION: "1999"}, "options.edition: expected one of 2016, first-edition"),
        ({"overrun_loss_cards": "yes"}, "options.overrun_loss_cards: expected true or false"),
    ],
)
def test_a_two_party_game_with_an_option_the_engine_does_not_know_is_refused(tmp_path, given, said):
    """When made (the library call `seki game new --two-party` makes), joined (`seki
    join`) and read (`seki verify` of a directory holding it: it does not verify, exit 3,
    as a referee's game.txt with it). (Old code: each took it, and the engine played the
    defaults.)"""
    t = Players(tmp_path)
    keys = {"ishida": t.keys["alice"], "tokugawa": t.keys["bob"]}
    publics = {s: k.public for s, k in keys.items()}
    with pytest.raises(Malformed, match=said):
        files.make_game("opts", components_hash(), given, publics, keys["ishida"])
    (tmp_path / "game.txt").write_text(_game_text(given, keys))
    out = t.seki("bob", "join", str(tmp_path / "game.txt"), "--key", "bob", "--out",
                 str(tmp_path / "b"), code=1)  # fmt: skip
    assert said in out and not (tmp_path / "b").exists()
    (tmp_path / "dir" / "reveals").mkdir(parents=True)
    shutil.copy(tmp_path / "game.txt", tmp_path / "dir" / "game.txt")
    done = seki("verify", str(tmp_path / "dir"))
    assert done.returncode == 3 and said in done.stderr


def _out_and_back(state: dict, kc, side: str) -> dict | None:
    """A legal move of one stack out one road and back along it: a stack travelling its
    own road again, which the first edition's 7.3.1 allows and 2016's refuses."""
    for option in options(state, kc, side):
        if option.get("type") != "move" or len(option["groups"]) != 1:
            continue
        group = option["groups"][0]
        back = {**option, "groups": [{**group, "path": [group["path"][0], option["from"]]}]}
        try:
            handle(state, kc, side, back)
        except RuleViolation:
            continue
        return back
    return None


def test_a_first_edition_two_party_game_plays_the_first_edition_on_both_sides(tmp_path):
    """`seki game new --two-party --rules first-edition`, `seki join`, the joins taken
    with `seki play`: both sides' engines play 7.3.1 as the first edition has it. Ishida
    moves a stack out and back along one road; its own engine takes the move, and
    Tokugawa's retraces it. Under 2016 the same move is refused. (Old code: both sides
    set the game up with the defaults, the 2016 rulebook, whatever game.txt said.)"""
    t = Players(tmp_path)
    a, b = tmp_path / "a", tmp_path / "b"
    t.seki("alice", "game", "new", str(a), "--two-party", "--key", "alice", "--rules",
           "first-edition", *t.pubs)  # fmt: skip
    t.seki("bob", "join", str(a / "game.txt"), "--key", "bob", "--out", str(b))
    t.seki("alice", "play", str(a), "--key", "alice", "-r", str(b / "records/0001-tokugawa.txt"))
    t.seki("bob", "play", str(b), "--key", "bob", "-r", str(a / "records/0000-ishida.txt"))
    played = {
        "ishida": sides.open_side(a, t.keys["alice"]),
        "tokugawa": sides.open_side(b, t.keys["bob"]),
    }
    for s in SIDES:
        assert played[s].load().public["options"][EDITION] == FIRST_EDITION
    comp = load_components()
    bots = {
        s: player_chooser(make_player("heuristic", comp, played[s].game.options, s)) for s in SIDES
    }
    moved: list[tuple[dict, dict]] = []

    def ishida(state: dict, kc, side: str) -> dict:
        back = None if moved else _out_and_back(state, kc, side)
        if back is None:
            return bots["ishida"](state, kc, side)
        moved.append((back, state))
        return back

    choose = {"ishida": ishida, "tokugawa": bots["tokugawa"]}
    now = utc_now()  # after the joins the commands dated
    for s in SIDES:  # a record the commands wrote with the joins, taken in
        for path in played[s].records()[len(played[other(s)].records()) :]:
            deliver(played[other(s)], path.read_text(), now)
    for _ in range(40):
        if moved:
            break
        turn = played["ishida"].whose_turn()
        deliver(played[other(turn)], played[turn].turn(choose[turn], now), now)
    assert moved, "no stack of Ishida's could go out and back"
    back, state = moved[0]
    record = played["ishida"].records()[-1]
    assert record.name.endswith("-ishida.txt")
    steps = [e["action"] for e in body(record.read_text())["entries"]]
    assert any(a and a["type"] == "move" and a["from"] == back["from"] for a in steps)
    assert (b / "records" / record.name).read_bytes() == record.read_bytes()  # retraced
    old = {**state, "options": {k: v for k, v in state["options"].items() if k != EDITION}}
    with pytest.raises(RuleViolation, match="7.3.1"):
        handle(old, played["ishida"].load().kc, "ishida", back)
