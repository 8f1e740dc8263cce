"""Cross-game replay (issue 28, "Referee mode"): a game id is a name, and two games may
share one with the same players' keys. Every document a party signs for a game, and
every packet, names the hash of its game's definition (protocol/binding.py), so a document
of one game is refused in the other as WRONG_GAME; one naming no definition (written
before the binding) is refused when it arrives. The attacks run through the real
commands and files."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_pbem_cli import ok, seki

from sekigahara_pbem import refusal
from sekigahara_pbem.crypto import agefile, signing
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import identity_path, read_identity
from sekigahara_pbem.protocol import binding, game, joins, packets, takebacks, turns
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.protocol.game import tool_version
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.demo import Bot

NOW = "2026-11-22T12:00:00Z"
RESIGN = "resign-g-1-ishida.signed.txt"


def _keys(tmp_path: Path) -> tuple[Path, Path, Path]:
    ref, alice, bob = (tmp_path / n for n in ("ref", "alice", "bob"))
    ok(seki(ref, "keys", "new", "ref", cwd=tmp_path))
    (tmp_path / "alice.pub").write_text(ok(seki(alice, "keys", "new", "alice", cwd=tmp_path)))
    (tmp_path / "bob.pub").write_text(ok(seki(bob, "keys", "new", "bob", cwd=tmp_path)))
    return ref, alice, bob


def _game_g(where: Path, ref: Path, alice: Path, bob: Path) -> Path:
    """Game `g` made in `where` by the referee for the same two players, joined through
    `seki join` (which remembers this game.txt as the players' game g) and set up."""
    where.mkdir()
    ok(seki(ref, "game", "new", "g", "--ishida", "../alice.pub", "--tokugawa", "../bob.pub",
            "--key", "ref", cwd=where))  # fmt: skip
    ok(seki(alice, "join", "g/game.txt", "--key", "alice", cwd=where))
    ok(seki(bob, "join", "g/game.txt", "--key", "bob", cwd=where))
    ok(seki(ref, "adjudicate", "g", "join-g-ishida.txt", "join-g-tokugawa.txt", "--key", "ref",
            cwd=where))  # fmt: skip
    ok(seki(alice, "join", "join-g-tokugawa.txt", "--key", "alice", cwd=where))
    ok(seki(bob, "join", "join-g-ishida.txt", "--key", "bob", cwd=where))
    ok(seki(ref, "adjudicate", "g", "seed-g-ishida.txt", "seed-g-tokugawa.txt", "--key", "ref",
            cwd=where))  # fmt: skip
    return where / "g"


def _opened_after_reveal(archive: Path, name: str) -> str:
    """What anyone holds once a game is revealed: a sealed turn file of its archive opened
    with the state key reveal.txt publishes (age -d would do the same)."""
    reveal, _ = signing.split((archive / "reveal.txt").read_text())
    secrets = game.parse_secrets(docs.load_yaml(reveal, "reveal")["secrets"], "reveal")
    envelope, _ = signing.split((archive / name).read_text())
    token = docs.load_yaml(envelope, name)["sealed"]
    return agefile.open_with_key(token, secrets.state_key, name).decode()


def test_a_resignation_from_one_game_is_refused_in_another_with_the_same_id(tmp_path):
    """Alice resigns game g (with `seki turn resign`); after that game's reveal, Bob, who
    plays her again in a new game g with the same keys, mails her signed resignation to
    its referee. It named only the id, so the new game took it and Bob won; now it names
    the first game's definition and is refused, and the new game goes on."""
    ref, alice, bob = _keys(tmp_path)
    first = _game_g(tmp_path / "a", ref, alice, bob)
    ok(seki(alice, "turn", "resign", "g/packets/000001-ishida.txt", "--key", "alice",
            cwd=first.parent))  # fmt: skip
    assert "resigned" in ok(seki(ref, "adjudicate", "g", RESIGN, "--key", "ref", cwd=first.parent))
    ok(seki(ref, "reveal", "g", "--key", "ref", cwd=first.parent))

    second = _game_g(tmp_path / "b", ref, alice, bob)
    resignation = _opened_after_reveal(first, "turns/000002-ishida.txt")
    assert "type: resign" in resignation and "side: ishida" in resignation
    (second.parent / "replayed.txt").write_text(resignation)
    done = seki(ref, "adjudicate", "g", "replayed.txt", "--key", "ref", cwd=second.parent)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert "signed for another game with the id g" in done.stdout
    assert GameDir(second).last_seq() == 1
    assert "awaiting Ishida" in ok(seki(ref, "status", "g", cwd=second.parent))
    ok(seki(ref, "verify", "g", cwd=second.parent))


def test_a_resignation_naming_no_definition_is_refused_when_it_arrives(tmp_path):
    """A resignation as seki wrote them before the binding (game id only), signed with
    Alice's key in some game g: a new game g with her key refuses it (it could be any
    game's), where it used to end the game."""
    ref, alice, bob = _keys(tmp_path)
    where = _game_g(tmp_path / "b", ref, alice, bob).parent
    old_style = {
        "format": "seki-turn/1", "game": "g", "side": "ishida", "answers": 1,
        "tool": tool_version(), "components": components_hash(), "actions": [{"type": "resign"}],
    }  # fmt: skip
    identity = read_identity(identity_path(alice, "alice"))
    (where / "old.txt").write_text(signing.sign(docs.dump(old_style), identity))
    done = seki(ref, "adjudicate", "g", "old.txt", "--key", "ref", cwd=where)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert "names no game definition" in done.stdout
    assert GameDir(where / "g").last_seq() == 1


@pytest.fixture
def two_games(tmp_path):
    """Two games with the id g, the same referee and the same players' keys, both set
    up: (the referee, the players by side, root and definition of each)."""
    people = {n: generate(n) for n in ("ref", "alice", "bob")}
    players = {"ishida": people["alice"], "tokugawa": people["bob"]}
    publics = {s: i.public for s, i in players.items()}
    made = []
    for name in ("a", "b"):
        root = tmp_path / name
        definition = game.create(root, "g", people["ref"], publics, components_hash(), {}, NOW)
        for file, text in joins.opening(definition, players):
            (outcome,) = referee.adjudicate(root, people["ref"], [(file, text.encode())], NOW)
            assert outcome.accepted, outcome.message
        made.append((root, definition))
    return people["ref"], players, made


def _refused_as_wrong_game(call) -> None:
    with pytest.raises(refusal.Refusal) as caught:
        call()
    assert caught.value.code == refusal.Code.WRONG_GAME, caught.value


def test_every_document_of_one_game_is_refused_in_the_other(two_games):
    """Turn files, sealed turn files, takeback requests and answers, joins, seeds and
    packets of game a, read as game b's: each is refused as another game's."""
    ref, players, ((root_a, a), (_, b)) = two_games
    alice, bob = players["ishida"], players["tokugawa"]
    assert a.game_id == b.game_id and a.players == b.players and a.hash != b.hash
    resign = signing.sign(turns.body(a, "ishida", 1, [{"type": "resign"}]), alice)
    sealed = turns.seal(a, resign, alice)
    request = signing.sign(takebacks.request_body(a, "ishida", 1, "0" * 64, ""), alice)
    consent = signing.sign(takebacks.consent_body(a, "tokugawa", "0" * 64, "accept"), bob)
    join = joins.make_join(a, alice)
    seed = joins.make_seed(a, bob, join, "join")
    packet = GameDir(root_a).packet(1, "ishida").read_text()
    for call in (
        lambda: turns.parse(b, resign, "t"),
        lambda: turns.envelope(b, sealed, "t"),
        lambda: takebacks.parse_request(b, request, "r"),
        lambda: takebacks.parse_consent(b, consent, "c"),
        lambda: joins.parse_join(b, join, "j"),
        lambda: joins.parse_seed(b, seed, "s"),
        lambda: packets.open_packet(b, packet, alice, "p"),
    ):
        _refused_as_wrong_game(call)
    assert turns.parse(a, resign, "t").bound and turns.envelope(a, sealed, "t").bound
    assert packets.open_packet(a, packet, alice, "p").definition == a.hash


def test_a_draft_without_a_definition_is_signed_with_it(two_games):
    """A hand-written turn file may leave the definition out: `seki turn sign` stamps the
    game's in (checking.stamped); a draft naming the other game's is refused."""
    from sekigahara_pbem.protocol.checking import stamped

    _, players, ((_, a), (_, b)) = two_games
    draft = "format: seki-turn/1\ngame: g\nside: ishida\nanswers: 1\nactions: [{type: resign}]\n"
    assert not turns.parse_body(b, draft, "t").bound
    signed = signing.sign(stamped(draft, b), players["ishida"])
    assert turns.parse(b, signed, "t").bound
    _refused_as_wrong_game(lambda: turns.parse_body(b, stamped(draft, a), "t"))


def _referee_taking_any_file(monkeypatch) -> None:
    """A modified referee: it reads every file arriving as if it were of its archive
    (bound to another game's definition passes too)."""
    parse = turns.parse
    monkeypatch.setattr(turns, "parse", lambda d, t, w, archived=False: parse(d, t, w, True))
    monkeypatch.setattr(binding, "check", lambda d, body, w: "definition" in body)


def test_verify_finds_a_file_of_another_game_a_referee_took(two_games, monkeypatch):
    """A referee that takes game a's resignation into game b: b's verify, after the
    reveal, finds the file inside names another definition."""
    ref, players, ((_, a), (root_b, _)) = two_games
    resign = signing.sign(turns.body(a, "ishida", 1, [{"type": "resign"}]), players["ishida"])
    with monkeypatch.context() as patch:
        _referee_taking_any_file(patch)
        (outcome,) = referee.adjudicate(root_b, ref, [("r.txt", resign.encode())], NOW)
    assert outcome.accepted, outcome.message
    checks.reveal(root_b, ref, NOW)
    with pytest.raises(checks.Discrepancy, match="signed for another game with the id g"):
        checks.verify(root_b)


def test_verify_finds_an_unbound_file_after_bound_ones(two_games, monkeypatch):
    """Once a game's turn files name its definition, its referee runs a seki that refuses
    any that does not: one taken after them (an old game's file, by a modified referee)
    is reported."""
    ref, players, (_, (root_b, b)) = two_games
    bid = Bot(players["ishida"], b, "bind").answer(
        GameDir(root_b).packet(1, "ishida").read_text(), ""
    )
    (outcome,) = referee.adjudicate(root_b, ref, [("bid.txt", bid.encode())], NOW)
    assert outcome.accepted, outcome.message
    old_style = {
        "format": "seki-turn/1", "game": "g", "side": "tokugawa", "answers": 2,
        "actions": [{"type": "resign"}],
    }  # fmt: skip
    resign = signing.sign(docs.dump(old_style), players["tokugawa"])
    with monkeypatch.context() as patch:
        _referee_taking_any_file(patch)
        (outcome,) = referee.adjudicate(root_b, ref, [("r.txt", resign.encode())], NOW)
    assert outcome.accepted, outcome.message
    checks.reveal(root_b, ref, NOW)
    with pytest.raises(checks.Discrepancy, match="though those since record 2 do"):
        checks.verify(root_b)
