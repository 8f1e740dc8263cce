"""Issue 28, two-party mode against the other side's own client: claims, the joins, and
times. Each attack is mounted as a modified client would: its own records, signed with
its own key, written through the side's directory and taken in by the victim's.

- Claims (twoparty/claims.py): where the reader cannot retrace a step it takes only the
  answer the rules ask of the author, never the author's public form; a forged claim
  opens, moves and removes nothing of the reader's and decides nothing.
- The joins carry no randomness: both secrets are committed before either side
  contributes, so a side that grinds its secret cannot choose its setup draws.
- Times (twoparty/deadlines.py): no record dated ahead of the receiver's clock, times
  never go back, a reveal's signed time counts, and `seki verify` judges every forfeit
  again; forfeit claims of the stock client are read by the other side.
"""

from __future__ import annotations

import copy
import hashlib
import random
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from test_two_party import random_choosers, secrets

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.protocol import clock
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.vocab import ELIMINATED, ISHIDA, OVER, SIDES, other
from sekigahara_pbem.twoparty import claims, deadlines, files
from sekigahara_pbem.twoparty import knowledge as kn
from sekigahara_pbem.twoparty.exchange import Cheat, Party, adopt_dealt, start, start_half
from sekigahara_pbem.twoparty.match import player_chooser
from sekigahara_pbem.twoparty.side import Side

NOW = "2026-11-23T06:00:00Z"


def at(hours: float) -> str:
    """NOW and `hours` later."""
    return clock.format_time(clock.parse_time(NOW, "now") + timedelta(hours=hours))


def sides_of(tmp_path: Path, hours: int | None = None, creator: str = ISHIDA) -> tuple:
    """Two sides' directories of a new game, with real keys, not joined yet; the game,
    each side's heuristic chooser, and the components."""
    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    players = {s: k.public for s, k in keys.items()}
    text = files.make_game("g28", components_hash(), {}, players, keys[creator], None, hours)
    game = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (tmp_path / s).mkdir(parents=True)
        (tmp_path / s / "game.txt").write_text(text)
        sides[s] = Side(tmp_path / s, game, keys[s], comp)
    choose = {s: player_chooser(make_player("heuristic", comp, {}, f"28-{s}")) for s in SIDES}
    return sides, game, choose, comp


def joined(tmp_path: Path, hours: int | None = None) -> tuple[dict, dict]:
    sides, _game, choose, _comp = sides_of(tmp_path, hours)
    joins = {s: sides[s].join(NOW) for s in SIDES}
    for s in SIDES:
        sides[other(s)].receive(joins[s], "join", NOW)
    return sides, choose


def play_on(sides: dict, choose: dict, turn: str, records: int, when: str = NOW) -> str:
    """`records` records from `turn`'s, each taken in by the other side; whose turn is
    next."""
    for _ in range(records):
        sides[other(turn)].receive(sides[turn].turn(choose[turn], when), "mail", when)
        turn = other(turn)
    return turn


def snapshot(side: Side) -> dict[str, bytes]:
    found = side.root.rglob("*")
    return {str(p.relative_to(side.root)): p.read_bytes() for p in found if p.is_file()}


# -- claims ---------------------------------------------------------------------------


def forge(public: dict, victim: str, attacker: str, kind: str) -> dict:
    """The public form an attacker claims: the victim's whole hidden army eliminated and
    its hand discarded (its engine would open them all), or the game won."""
    forged = copy.deepcopy(public)
    if kind == "army":
        for h in forged["blocks"]:
            if kn.is_handle(h) and kn.handle_side(h) == victim:
                forged["blocks"][h] = ELIMINATED
        pile = forged["cards"][victim]
        pile["discard"], pile["hand"] = pile["discard"] + pile["hand"], []
    else:
        reason = f"{victim}-leader killed"
        forged["result"] = {"winner": attacker, "how": "instant", "rule": "2.1", "reason": reason}
        forged["step"], forged["active"] = OVER, None
    return forged


@pytest.mark.parametrize("steps", [0, 40])
@pytest.mark.parametrize("kind", ["army", "result"])
def test_a_forged_claim_opens_moves_and_decides_nothing(tmp_path, kind, steps):
    """The old reader took a result it could not retrace (the author set `steps` past
    what it could) as a claim: the victim's next record opened its whole army and hand,
    or the game was over and its robot revealed its secret. Now the reader computes every
    step itself and refuses the record, its directory untouched."""
    sides, choose = joined(tmp_path)
    turn = play_on(sides, choose, ISHIDA, 7)
    for _ in range(40):  # a record that shows the public form with cards in the victim's hand
        attacker, victim = sides[turn], sides[other(turn)]
        party = attacker.load()
        base = party.agreed
        record = party.write(choose[turn])
        shown = [e for e in record.entries if e.public is not None]
        if shown and shown[-1].public["cards"][victim.side]["hand"]:
            break  # (the sides' seeds come from the system: some games empty a hand here)
        turn = play_on(sides, choose, turn, 1)
    hidden = [h for h in shown[-1].public["blocks"] if kn.is_handle(h)]
    assert any(kn.handle_side(h) == victim.side for h in hidden)
    assert shown[-1].public["cards"][victim.side]["hand"]
    shown[-1].public = forge(shown[-1].public, victim.side, attacker.side, kind)
    shown[-1].steps += steps
    text = attacker._write_record(party, record, base, {}, NOW)
    before = snapshot(victim)
    # which check refuses it first depends on the game the fresh secrets deal
    refused = "forced steps where the game stops|differs from this side|may claim nothing"
    with pytest.raises(Cheat, match=refused):
        victim.receive(text, "mail", NOW)
    assert snapshot(victim) == before
    assert victim.result() is None and not victim.load().owed


def honest_game(comp, seed: int) -> list[tuple[dict, object, set[int]]]:
    """An honest game between random bots, in memory: each record, its reader as it was
    before taking it in, and the entries the reader took a claim in (twoparty/claims.py)."""
    books = {s: kn.Book(s, secrets(seed)[s]) for s in SIDES}
    public = start(comp, books)
    parties = {s: Party(s, comp, books[s], public) for s in SIDES}
    joins = {s: parties[s].join() for s in SIDES}
    for s in SIDES:
        parties[other(s)].read(joins[s])
    choose = random_choosers(seed)
    at_entry: list[int] = []
    claimed: set[int] = set()
    real_retrace, real_step, real_refutation = Party._retrace, claims.forced_step, claims.refutation

    def retrace(self, e):
        at_entry.append(at_entry.pop() + 1 if at_entry else 0)
        return real_retrace(self, e)

    def note(real):
        def answered(*args):
            claimed.add(at_entry[-1])
            return real(*args)

        return answered

    log = []
    turn = ISHIDA
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Party, "_retrace", retrace)
        patch.setattr(claims, "forced_step", note(real_step))
        patch.setattr(claims, "refutation", note(real_refutation))
        while parties[ISHIDA].public["result"] is None:
            record = parties[turn].write(choose[turn])
            reader = parties[other(turn)]
            kept = copy.deepcopy(reader.to_data())
            at_entry.clear()
            claimed.clear()
            reader.read(record)
            log.append((kept, record, set(claimed)))
            turn = other(turn)
    return log


def lie(public: dict, reader: str, author: str, rnd: random.Random) -> dict | None:
    """One random change of a public form a modified author might claim (None if this
    one does not apply here): the reader's items moved, removed or shown, the game
    decided, its own items moved, the week, control or the fight changed."""
    forged = copy.deepcopy(public)
    blocks = forged["blocks"]
    mine = sorted(h for h in blocks if kn.is_handle(h) and kn.handle_side(h) == reader)
    theirs = sorted(h for h in blocks if kn.is_handle(h) and kn.handle_side(h) == author)
    places = sorted({w for w in blocks.values()})
    fight = (forged.get("combat") or {}).get("fight")
    kind = rnd.randrange(10)
    if kind == 0 and mine:
        for h in mine:
            blocks[h] = ELIMINATED
    elif kind == 1 and mine:
        blocks[rnd.choice(mine)] = rnd.choice(places)
    elif kind == 2 and forged["cards"][reader]["hand"]:
        pile = forged["cards"][reader]
        pile["discard"], pile["hand"] = pile["discard"] + pile["hand"], []
    elif kind == 3:
        winner = rnd.choice(SIDES)
        forged["result"] = {"winner": winner, "how": "instant", "rule": "2.1", "reason": "x"}
        forged["step"], forged["active"] = OVER, None
    elif kind == 4 and theirs:
        blocks[rnd.choice(theirs)] = rnd.choice(places)
    elif kind == 5:
        forged["week"] += rnd.choice([-1, 1])
    elif kind == 6 and forged["control"]:
        where = rnd.choice(sorted(forged["control"]))
        forged["control"][where] = other(forged["control"][where])
    elif kind == 7 and fight is not None:
        fight["finished"] = [] if fight["finished"] else [rnd.choice(SIDES)]
    elif kind == 8 and fight is not None:
        side = rnd.choice(SIDES)
        fight["impact"][side] += rnd.choice([-2, -1, 1, 2])
    elif kind == 9 and mine:
        del blocks[rnd.choice(mine)]
    else:
        return None
    return forged if forged != public else None


def test_random_forged_claims_are_never_accepted(comp):
    """At least 250 forged claims, more than half of them in entries where the reader
    does take a claim (the rest made claims by a `steps` count past what the game
    allows): every one is refused (the old reader accepted about a third)."""
    log = honest_game(comp, 28)
    rnd = random.Random(28)
    at_claims = [(i, j) for i, (_, _, claimed) in enumerate(log) for j in sorted(claimed)]
    anywhere = [
        (i, j)
        for i, (_, record, _) in enumerate(log)
        for j, e in enumerate(record.entries)
        if e.public is not None
    ]
    assert len(at_claims) > 20
    tried, accepted, in_claims = 0, [], 0
    while tried < 260:
        claim = rnd.random() < 0.6
        i, j = rnd.choice(at_claims if claim else anywhere)
        kept, record, _ = log[i]
        forged = copy.deepcopy(record)
        entry = forged.entries[j]
        public = lie(entry.public, other(record.side), record.side, rnd)
        if public is None:
            continue
        entry.public = public
        if not claim or rnd.random() < 0.5:
            entry.steps += rnd.randrange(1, 30)
        tried += 1
        in_claims += claim
        reader = Party.from_data(comp, copy.deepcopy(kept))
        try:
            reader.read(forged)
        except Refusal:
            continue
        accepted.append((i, j))
    assert in_claims > 130
    assert not accepted, f"{len(accepted)} of {tried} forged claims accepted: {accepted[:5]}"


# -- the joins --------------------------------------------------------------------------


def doubles(comp, hand: list[str]) -> int:
    return sum(comp.cards[c].kind in ("double", "loyalty") for c in hand)


@pytest.mark.parametrize("second", SIDES)
def test_the_second_joiner_cannot_choose_its_setup_draws(tmp_path, monkeypatch, second):
    """The second side to join sees the first's join before it writes its own. It tries
    300 secrets (a modified seki need not derive its secret from its key), each with the
    setup hand the randomness it has seen would bind, and joins with the one holding
    most doubles and Loyalty Challenges. The joins carry no randomness, and the first
    that binds its setup draws comes after its join: the hand it gets is not the one it
    chose (the old code gave it exactly that hand)."""
    first = other(second)
    sides, game, choose, comp = sides_of(tmp_path, creator=first)
    first_join = sides[first].join(NOW)
    seen = files.read_record(game, first_join, "join", lambda side, seq: {})
    randomness = seen.record.contribution
    assert randomness == b""  # nothing to grind against

    def hand_for(secret: bytes) -> list[str]:
        book = kn.Book(second, secret)
        public = adopt_dealt(start_half(comp, book, {}), comp, first, seen.body["dealt"])
        state = kn.working(public, book)
        kn.bind(state, comp, book, randomness)
        return sorted(state["cards"][second]["hand"])

    tries = [hashlib.sha256(b"grind %d" % i).digest() for i in range(300)]
    chosen = max(tries, key=lambda s: doubles(comp, hand_for(s)))
    wanted = hand_for(chosen)
    real_secret = files.secret
    monkeypatch.setattr(
        files,
        "secret",
        lambda game, who: chosen if game.side_of(who.public) == second else real_secret(game, who),
    )
    sides[first].receive(sides[second].join(NOW), "join", NOW)
    sides[second].receive(first_join, "join", NOW)
    turn = ISHIDA
    while any(kn.is_handle(c) for c in sides[second].load().copy()["cards"][second]["hand"]):
        turn = play_on(sides, choose, turn, 1)
    got = sorted(sides[second].load().copy()["cards"][second]["hand"])
    assert got != wanted, "the hand chosen by grinding the secret"


# -- times --------------------------------------------------------------------------------


def test_a_forfeit_dated_ahead_of_the_receivers_clock_is_refused(tmp_path):
    """Ishida's clock says a day has passed; Tokugawa's, an hour: the claim is refused
    (the old reader took the claim's own time for it)."""
    sides, choose = joined(tmp_path, hours=24)
    play_on(sides, choose, ISHIDA, 1)
    claim = sides[ISHIDA].claim_forfeit(at(25))
    with pytest.raises(Cheat, match="ahead of this side's clock"):
        sides["tokugawa"].receive(claim, "mail", at(1))
    assert sides["tokugawa"].result() is None


def test_a_back_dated_record_is_refused(tmp_path, monkeypatch):
    """Ishida dates its record two days before Tokugawa's last, so that Tokugawa's time
    would have run out before the record came (and Ishida's forfeit claim follows at
    once): times never go back. (Ishida's modified client dates by its clock alone; the
    stock one dates no earlier than the record it follows.)"""
    monkeypatch.setattr(Side, "_dated", lambda self, now: now)
    sides, choose = joined(tmp_path, hours=24)
    play_on(sides, choose, ISHIDA, 1, NOW)
    play_on(sides, choose, "tokugawa", 1, at(20))
    text = sides[ISHIDA].turn(choose[ISHIDA], at(-28))
    before = snapshot(sides["tokugawa"])
    with pytest.raises(Cheat, match="times never go back"):
        sides["tokugawa"].receive(text, "mail", at(21))
    assert snapshot(sides["tokugawa"]) == before


def test_an_answer_within_the_clocks_tolerance_is_dated_after_what_it_answers(tmp_path):
    """Ishida's clock runs ten minutes ahead of Tokugawa's (within the tolerance), and
    Tokugawa answers five minutes after Ishida's record by its own clock: its answer is
    dated as Ishida's record, not before it, so Ishida takes it (the old client dated it
    by Tokugawa's clock alone, and Ishida refused an honest answer as back-dated)."""
    sides, choose = joined(tmp_path, hours=24)
    sides["tokugawa"].receive(sides[ISHIDA].turn(choose[ISHIDA], at(10 / 60)), "mail", NOW)
    answer = sides["tokugawa"].turn(choose["tokugawa"], at(5 / 60))
    sides[ISHIDA].receive(answer, "mail", at(10 / 60))
    assert deadlines.written(answer, "answer") == clock.parse_time(at(10 / 60), "now")


def test_a_losers_claim_that_the_winners_reveal_was_late_is_refused_and_fails_verify(tmp_path):
    """Tokugawa resigns; both reveal an hour later. A day on, Tokugawa's modified client
    claims Ishida never revealed. Ishida refuses it (its reveal is signed within the
    deadline), and `seki verify` on Tokugawa's own directory, which holds that claim and
    Ishida's reveal, judges the forfeit again and refuses it (the old code: both took the
    forfeit, and both directories verified)."""
    sides, choose = joined(tmp_path, hours=24)
    play_on(sides, choose, ISHIDA, 1)
    sides[ISHIDA].receive(sides["tokugawa"].resign(at(1)), "mail", at(1))
    for s in SIDES:
        sides[other(s)].take_reveal(sides[s].reveal(at(2)), "reveal", at(2))
    with pytest.raises(Refusal, match="reveal is here"):
        sides["tokugawa"].claim_forfeit(at(27))  # the stock client refuses
    party = sides["tokugawa"].load()
    base = party.agreed
    claim = sides["tokugawa"]._write_record(party, party.forfeit(3), base, {}, at(27))
    with pytest.raises(Cheat, match="its reveal is signed 2026-11-23T08:00:00Z"):
        sides[ISHIDA].receive(claim, "mail", at(27))
    assert sides[ISHIDA].result()["how"] == "resignation"
    for s, code in ((ISHIDA, 0), ("tokugawa", 3)):  # 3: does not verify
        done = subprocess.run(
            [sys.executable, "-m", "sekigahara_pbem", "verify", str(sides[s].root)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == code, done.stdout + done.stderr
    assert "does not verify" in done.stderr and "did not reveal within the deadline" in done.stderr


def test_every_forfeit_the_stock_client_writes_is_read_by_the_other_side(tmp_path):
    """After each of 30 records of a game, its author claims that the other side let the
    deadline pass: the other side reads the claim and takes the same result (the old
    claim was written against the form from before the author's own record, which the
    other side does not hold: most were unreadable)."""
    root = tmp_path / "game"
    sides, choose = joined(root, hours=24)
    turn = ISHIDA
    for n in range(30):
        turn = play_on(sides, choose, turn, 1, at(n))
        claimant = other(turn)
        copied = {}
        for s in SIDES:
            shutil.copytree(sides[s].root, tmp_path / f"{n}" / s)
            copied[s] = Side(tmp_path / f"{n}" / s, sides[s].game, sides[s].identity, sides[s].comp)
        claim = copied[claimant].claim_forfeit(at(n + 25))
        copied[turn].receive(claim, "mail", at(n + 25))
        result = copied[turn].result()
        assert result == copied[claimant].result()
        assert (result["winner"], result["how"]) == (claimant, "forfeit")
        shutil.rmtree(tmp_path / f"{n}")
