"""A modified two-party client (issue 28): what it can send in place of the record its
honest engine wrote, for tests/test_two_party_adversary_fuzz.py. Each mutation starts
from an honest record (`Honest`: the record, both sides' knowledge before it, where the
victim takes a claim in it) and gives a document signed with the author's key (or a
stranger's): an entry's `steps` (held, fewer, more, huge; with the public form the
victim's own engine would reach, so that the claim is one it could take), its claims
(the public form: the victim's hidden items moved, removed or named, the game decided,
counts changed), its commitments (an old handle committed again, the victim's handles,
one left out or made up), its openings (wrong salts and values, the victim's items, its
own too early or left out), held actions, its actions (the victim's items, another
type, another legal play), whole records (numbers, chain, randomness, entries, signer),
its times (ahead of the victim's clock, back-dated), forfeit claims and takebacks
(`next_place`), and its reveal (`forged_reveal`: `last` pins, times, secrets).

The game: both players' keys and the game's nonce come from a seed, and each side
chooses by what it sees (`chooser`), so a seed replays a whole campaign.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import random
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from fuzzing import mutate

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.commitments import commit
from sekigahara_pbem.crypto.keys import Identity
from sekigahara_pbem.protocol import clock
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.refusal import Refusal
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.state import canonical
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import ELIMINATED, ISHIDA, OVER, SIDES, other
from sekigahara_pbem.twoparty import deadlines, exchange, files
from sekigahara_pbem.twoparty import knowledge as kn
from sekigahara_pbem.twoparty.exchange import (
    AGREE,
    FORFEIT,
    RESIGN,
    REVEAL,
    TAKEBACK,
    Entry,
    Party,
    Record,
    forfeited,
)
from sekigahara_pbem.twoparty.side import Side

START = clock.parse_time("2026-11-23T06:00:00Z", "start")
HOURS = 24  # the game's deadline: forfeit claims are possible
STEP = 10  # minutes between two records of the honest game
LATE = 5  # minutes the victim takes to read a record


def at(minutes: float) -> str:
    return clock.format_time(START + timedelta(minutes=minutes))


def identity(name: str, seed: int) -> Identity:
    """A key of `name`'s made from the seed: the same game every run."""
    made = [hashlib.sha256(f"{name}-{seed}-{k}".encode()).digest() for k in ("sig", "enc")]
    return Identity(
        name,
        Ed25519PrivateKey.from_private_bytes(made[0]),
        X25519PrivateKey.from_private_bytes(made[1]),
    )


def chooser(seed: str):
    """A random player whose choice is a function of what it sees (so the victim after a
    mutated record and after the honest one chooses alike where it sees alike)."""

    def choose(state: dict, kc, side: str) -> dict:
        acts = options(state, kc, side)
        digest = hashlib.sha256((seed + canonical(view(state, kc, side))).encode()).digest()
        return acts[int.from_bytes(digest[:8], "big") % len(acts)]

    return choose


@dataclass
class Honest:
    """A record the author wrote honestly, and what the mutations start from."""

    text: str
    record: Record
    body: dict
    n: int  # its place
    prev: str
    base: dict  # the public form both sides held before it
    author: str
    author_data: dict  # the author's knowledge before it wrote the record
    reader_data: dict  # the victim's before it takes the record in
    minutes: int  # when it was written
    last_minutes: int  # when the record before it was
    author_later: dict  # the author's knowledge after it wrote it
    claimed: list[int]  # its entries where the victim takes a claim (twoparty/claims.py)
    after: Party  # the victim after the honest record
    follows: bool = False  # the mutations follow the honest record (it is `after` already)
    _later: Party | None = None

    def later(self, choose) -> Party:
        """The victim after the honest record and its own next record."""
        if self._later is None:
            self._later = copy.deepcopy(self.after)
            if self._later.public["result"] is None:
                self._later.write(choose)
        return self._later

    @property
    def victim(self) -> str:
        return other(self.author)

    @property
    def now(self) -> int:
        return self.minutes + LATE


@dataclass
class Forged:
    family: str
    label: str
    text: str
    now: int  # the victim's clock, in minutes


class Table:
    """A game between two sides in their own directories, with real keys and a deadline,
    both joins taken in; each side's player chooses by what it sees (`chooser`)."""

    def __init__(self, root: Path, seed: int):
        self.comp = load_components()
        self.keys = {s: identity(s, seed) for s in SIDES}
        self.stranger = identity("stranger", seed)
        publics = {s: k.public for s, k in self.keys.items()}
        with pytest.MonkeyPatch.context() as patch:  # the game's nonce, from the seed
            patch.setattr(files.os, "urandom", lambda n: hashlib.sha256(b"%d" % seed).digest())
            text = files.make_game(
                f"adversary-{seed}", components_hash(), {}, publics, self.keys[ISHIDA], None, HOURS
            )
        self.game = files.read_game(text, "game.txt")
        self.sides = {}
        for s in SIDES:
            (root / s).mkdir(parents=True)
            (root / s / "game.txt").write_text(text)
            self.sides[s] = Side(root / s, self.game, self.keys[s], self.comp)
        joins = {s: self.sides[s].join(at(0)) for s in SIDES}
        for s in SIDES:
            self.sides[other(s)].receive(joins[s], "join", at(1))
        self.choose = chooser(f"adversary-{seed}")
        self.seed = seed

    def party(self, data: dict) -> Party:
        return Party.from_data(self.comp, copy.deepcopy(data))

    def encode(self, h: Honest, record: Record, written: str | None = None) -> str:
        """`record` as a file signed by the author, at the honest record's place."""
        when = written or at(h.minutes)
        key = self.keys[h.author]
        return files.record_text(self.game, record, h.n, h.prev, h.base, key, {}, when)

    def sign(self, h: Honest, data: dict) -> str:
        return signing.sign(docs.dump(data), self.keys[h.author])

    def decode(self, h: Honest, text: str) -> Record:
        return files.read_record(self.game, text, "forged", lambda s, q: h.base).record


# -- the mutations of a record at its place -------------------------------------------------


def _own_handles(public: dict, side: str) -> list[str]:
    return sorted(
        h for h in kn.names_in({"b": public["blocks"], "c": public["cards"]})
        if kn.is_handle(h) and kn.handle_side(h) == side
    )  # fmt: skip


def as_victim_computes(t: Table, h: Honest, record: Record, j: int) -> dict | None:
    """The public form the victim's own engine reaches at entry `j` of `record` (so that a
    claim forged with it passes the comparison): the strongest claim a modified client
    could make there, even one knowing the victim's secrets."""
    party = t.party(h.reader_data)
    target = record.entries[j]
    seen: list = []
    real = exchange.first_difference

    def capture(a, b, path=""):
        if b is target.public:
            seen.append(a)
        return real(a, b, path) if b is not target.public else None

    with pytest.MonkeyPatch.context() as patch, contextlib.suppress(Refusal):
        patch.setattr(exchange, "first_difference", capture)
        party.read(record)
    return seen[0] if seen else None


def _entry(h: Honest, rnd: random.Random, among) -> int:
    """An entry to mutate, more often one where the victim takes a claim."""
    claimed = [j for j in h.claimed if j in among]
    return rnd.choice(claimed if claimed and rnd.random() < 0.6 else list(among))


def _steps(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    rec = copy.deepcopy(h.record)
    if not rec.entries:
        return None
    j = _entry(h, rnd, range(len(rec.entries)))
    e = rec.entries[j]
    new = rnd.choice([-1, 0, e.steps - 1, e.steps + 1, e.steps + rnd.randint(2, 40), 10**6, 10**30])
    if new == e.steps or new < -1:
        return None
    if new == -1:
        e.public = None
    elif e.public is None:
        e.public = copy.deepcopy(rec.entries[j - 1].public if j else h.base) or h.base
    e.steps = new
    label = f"steps {j}: {h.record.entries[j].steps} -> {new}"
    if new >= 0 and rnd.random() < 0.6:  # the public form the victim would reach
        rec.entries = rec.entries[: j + 1]
        reached = as_victim_computes(t, h, rec, j)
        if reached is None:
            return None
        e.public = reached
        label += " (as the victim computes)"
    return label, rec


def lie(public: dict, victim: str, author: str, reader: dict, rnd: random.Random) -> tuple:
    """A public form a modified author might claim: the victim's items moved, removed or
    named, its hand discarded or its bid changed, the game decided, counts changed."""
    forged = copy.deepcopy(public)
    blocks, cards = forged["blocks"], forged["cards"]
    mine = sorted(h for h in blocks if kn.is_handle(h) and kn.handle_side(h) == victim)
    theirs = sorted(h for h in blocks if kn.is_handle(h) and kn.handle_side(h) == author)
    places = sorted(set(blocks.values()))
    reals = {h: r for r, h in reader["book"]["own"].items()}
    fight = (forged.get("combat") or {}).get("fight")
    pile = cards[victim]
    kind = rnd.choice(
        ["eliminate all", "move one", "remove one", "name one", "name a card", "discard hand",
         "discard a card", "hand to deck", "bid", "result", "over", "week", "control",
         "impact", "finished", "their block", "slots", "add a card", "active"]
    )  # fmt: skip
    if kind == "eliminate all" and mine:
        for h in mine:
            blocks[h] = ELIMINATED
    elif kind == "move one" and mine:
        blocks[rnd.choice(mine)] = rnd.choice(places)
    elif kind == "remove one" and mine:
        del blocks[rnd.choice(mine)]
    elif kind == "name one" and [h for h in mine if h in reals]:
        h = rnd.choice([h for h in mine if h in reals])
        blocks[reals[h]] = blocks.pop(h)
    elif kind == "name a card" and [c for c in pile["hand"] if c in reals]:
        c = rnd.choice([c for c in pile["hand"] if c in reals])
        pile["hand"] = sorted(reals[c] if x == c else x for x in pile["hand"])
    elif kind == "discard hand" and pile["hand"]:
        pile["discard"], pile["hand"] = pile["discard"] + pile["hand"], []
    elif kind == "discard a card" and pile["hand"]:
        c = rnd.choice(pile["hand"])
        pile["hand"].remove(c)
        pile["discard"].append(c)
    elif kind == "hand to deck" and pile["hand"] and pile["deck"]:
        a, b = rnd.choice(pile["hand"]), rnd.choice(pile["deck"])
        pile["hand"] = sorted(b if x == a else x for x in pile["hand"])
        pile["deck"] = sorted(a if x == b else x for x in pile["deck"])
    elif kind == "bid" and forged["sealed"].get(victim) and pile["hand"]:
        forged["sealed"][victim] = rnd.choice(pile["hand"])
    elif kind == "result":
        winner = rnd.choice(SIDES)
        forged["result"] = {"winner": winner, "how": "instant", "rule": "2.1", "reason": "x"}
        forged["step"], forged["active"] = OVER, None
    elif kind == "over":
        forged["step"] = OVER
    elif kind == "week":
        forged["week"] += rnd.choice([-1, 1])
    elif kind == "control" and forged["control"]:
        where = rnd.choice(sorted(forged["control"]))
        forged["control"][where] = other(forged["control"][where])
    elif kind == "impact" and fight is not None and "impact" in fight:
        side = rnd.choice(SIDES)
        fight["impact"][side] += rnd.choice([-2, -1, 1, 2])
    elif kind == "finished" and fight is not None and "finished" in fight:
        fight["finished"] = [] if fight["finished"] else [rnd.choice(SIDES)]
    elif kind == "their block" and theirs:
        blocks[rnd.choice(theirs)] = rnd.choice(places)
    elif kind == "slots" and "slots" in forged:
        forged["slots"][rnd.choice(SIDES)] += rnd.choice([-1, 1])
    elif kind == "add a card":
        pile["hand"] = sorted([*pile["hand"], f"?{victim}-s{rnd.randint(900, 999)}"])
    elif kind == "active":
        forged["active"] = rnd.choice([*SIDES, None])
    if forged == public:
        return None
    return kind, forged


def _claims(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    rec = copy.deepcopy(h.record)
    shown = [j for j, e in enumerate(rec.entries) if e.public is not None]
    if not shown:
        return None
    j = _entry(h, rnd, shown)
    e = rec.entries[j]
    label = f"claim {j}"
    if rnd.random() < 0.5:  # a claim the author makes by counting more forced steps
        e.steps += rnd.choice([1, 1, 2, rnd.randint(3, 40)])
        rec.entries = rec.entries[: j + 1]
        reached = as_victim_computes(t, h, rec, j)
        if reached is not None:
            e.public = reached
        label += f" with steps {e.steps}"
    made = lie(e.public, h.victim, h.author, h.reader_data, rnd)
    if made is None:
        return None
    e.public = made[1]
    return f"{label}: {made[0]}", rec


def _commitments(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    rec = copy.deepcopy(h.record)
    theirs = sorted(h.reader_data["theirs"])
    victims = sorted(h.reader_data["book"]["own"].values())
    salt = rnd.randbytes(32)
    kind = rnd.choice(["again", "again opened", "victim's", "strange", "value", "drop", "new"])
    if kind == "again" and theirs:
        handle = rnd.choice(theirs)
        rec.commitments[handle] = commit(rnd.choice(sorted(t.comp.cards)), salt)
    elif kind == "again opened" and theirs and rec.entries:
        # the bid-swap attack: commit an old handle anew and open it as another item
        handle = rnd.choice(theirs)
        value = rnd.choice(sorted(t.comp.cards) + sorted(t.comp.blocks))
        rec.commitments[handle] = commit(value, salt)
        rec.entries[rnd.randrange(len(rec.entries))].opened[handle] = (value, salt.hex())
    elif kind == "victim's" and victims:
        handle = rnd.choice(victims)
        rec.commitments[handle] = commit("x", salt)
    elif kind == "strange":
        handle = rnd.choice(["", "x", "?", "?referee-s1", "ukita-1", f"?{h.author}", "?-s1"])
        rec.commitments[handle] = commit("x", salt)
    elif kind == "value" and rec.commitments:
        handle = rnd.choice(sorted(rec.commitments))
        rec.commitments[handle] = rnd.choice([commit("x", salt), "0" * 64, "zz", "0" * 65, ""])
    elif kind == "drop" and rec.commitments:
        handle = rnd.choice(sorted(rec.commitments))
        del rec.commitments[handle]
    elif kind == "new":
        handle = f"?{h.author}-s{rnd.randint(500, 999)}"
        rec.commitments[handle] = commit(rnd.choice(sorted(t.comp.cards)), salt)
    else:
        return None
    return f"commitment {kind}", rec


def _openings(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    rec = copy.deepcopy(h.record)
    if not rec.entries:
        return None
    j = rnd.randrange(len(rec.entries))
    e = rec.entries[j]
    author = t.party(h.author_data).book
    victim = t.party(h.reader_data).book
    hidden_own = sorted(
        hd for r, hd in author.own.items() if hd not in h.author_data["opened"]
        and hd in h.reader_data["theirs"]
    )  # fmt: skip
    kind = rnd.choice(["salt", "value", "victim's", "victim's salt", "early", "drop", "ghost"])
    if kind == "salt" and e.opened:
        hd = rnd.choice(sorted(e.opened))
        e.opened[hd] = (e.opened[hd][0], rnd.randbytes(32).hex())
    elif kind == "value" and e.opened:
        hd = rnd.choice(sorted(e.opened))
        e.opened[hd] = (rnd.choice(sorted(t.comp.cards) + sorted(t.comp.blocks)), e.opened[hd][1])
    elif kind in ("victim's", "victim's salt") and victim.own:
        real, hd = rnd.choice(sorted(victim.own.items()))
        salt = victim.salt(hd).hex() if kind == "victim's salt" else rnd.randbytes(32).hex()
        e.opened[hd] = (real, salt)
    elif kind == "early" and hidden_own:  # the author's own item, truly, before its time
        hd = rnd.choice(hidden_own)
        e.opened[hd] = (author.reals()[hd], author.salt(hd).hex())
    elif kind == "drop" and e.opened:
        del e.opened[rnd.choice(sorted(e.opened))]
    elif kind == "ghost":
        hd = f"?{h.author}-s{rnd.randint(500, 999)}"
        salt = rnd.randbytes(32)
        rec.commitments[hd] = commit("ukita-1", salt)
        e.opened[hd] = ("ukita-1", salt.hex())
    else:
        return None
    return f"opening {kind} in entry {j}", rec


def _held(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    rec = copy.deepcopy(h.record)
    victim_hand = h.reader_data["public"]["cards"][h.victim]["hand"]
    kind = rnd.choice(["last", "midway", "nothing", "resign", "victim's card", "victim's move"])
    acted = [j for j, e in enumerate(rec.entries) if e.action is not None]
    if kind == "last" and acted:
        j = acted[-1]
        rec.entries = rec.entries[: j + 1]
        rec.entries[j].steps, rec.entries[j].public = -1, None
    elif kind == "midway" and len(rec.entries) > 1:
        j = rnd.randrange(len(rec.entries) - 1)
        rec.entries[j].steps, rec.entries[j].public = -1, None
    elif kind == "nothing":
        rec.entries.append(Entry(h.author, None, -1, {}, None))
    elif kind == "resign":
        rec.entries.append(Entry(h.author, {"type": RESIGN}, -1, {}, None))
    elif kind == "victim's card" and victim_hand:
        action = {"type": rnd.choice(["bid", "challenge", "discard"]), "card": victim_hand[0]}
        rec.entries.append(Entry(h.author, action, -1, {}, None))
    elif kind == "victim's move":
        mine = _own_handles(h.base, h.victim)
        if not mine:
            return None
        action = {"type": "move", "moves": [{"block": mine[0], "path": ["x"]}]}
        rec.entries.append(Entry(h.author, action, -1, {}, None))
    else:
        return None
    return f"held {kind}", rec


def _actions(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    rec = copy.deepcopy(h.record)
    acted = [j for j, e in enumerate(rec.entries) if isinstance(e.action, dict)]
    kind = rnd.choice(["victim's handle", "victim's name", "type", "drop a field", "none", "other"])
    if kind == "other":  # another legal play of the author's (honest: not a lie)
        return _other_play(t, h, rnd)
    if not acted:
        return None
    e = rec.entries[rnd.choice(acted)]
    names = sorted(n for n in kn.names_in(e.action) if n != e.action.get("type"))
    victim = t.party(h.reader_data).book
    if kind == "victim's handle" and names and victim.own:
        to = rnd.choice(sorted(victim.own.values()))
        e.action = kn.replace(e.action, {rnd.choice(names): to})
    elif kind == "victim's name" and names and victim.own:
        to = rnd.choice(sorted(victim.own))
        e.action = kn.replace(e.action, {rnd.choice(names): to})
    elif kind == "type":
        e.action["type"] = rnd.choice(["move", "bid", "resign", "pass", "challenge", "x", 7])
    elif kind == "drop a field" and len(e.action) > 1:
        del e.action[rnd.choice(sorted(k for k in e.action if k != "type"))]
    elif kind == "none":
        e.action = None
    else:
        return None
    return f"action {kind}", rec


def _other_play(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record] | None:
    """The author's engine with another choice at its first decision: a legal play."""
    party = t.party(h.author_data)
    first = [True]

    def choose(state, kc, side):
        acts = options(state, kc, side)
        if first[0] and len(acts) > 1:
            first[0] = False
            return acts[rnd.randrange(len(acts))]
        first[0] = False
        return t.choose(state, kc, side)

    return "another play", party.write(choose)


def _records(t: Table, h: Honest, rnd: random.Random) -> tuple[str, Record | str] | None:
    rec = copy.deepcopy(h.record)
    kind = rnd.choice(
        ["seq", "randomness", "short randomness", "no randomness", "drop entry", "twice",
         "reverse", "no entries", "resign after", "takeback", "agree", "forfeit entry"]
    )  # fmt: skip
    if kind == "seq":
        rec.seq = rnd.choice([rec.seq - 1, rec.seq + 1, 0, 10**9])
    elif kind == "randomness":  # not the author's: the victim's new draws differ (unsteered)
        rec.contribution = rnd.randbytes(32)
    elif kind == "short randomness":
        rec.contribution = rnd.randbytes(31)
    elif kind == "no randomness":
        rec.contribution = b""
    elif kind == "drop entry" and rec.entries:
        del rec.entries[rnd.randrange(len(rec.entries))]
    elif kind == "twice" and rec.entries:
        j = rnd.randrange(len(rec.entries))
        rec.entries.insert(j, copy.deepcopy(rec.entries[j]))
    elif kind == "reverse" and len(rec.entries) > 1:
        rec.entries.reverse()
    elif kind == "no entries" and rec.entries:
        rec.entries = []
    elif kind == "resign after":
        last = rec.entries[-1].public if rec.entries and rec.entries[-1].public else h.base
        rec.entries.append(Entry(h.author, {"type": RESIGN}, 0, {}, last))
    elif kind in ("takeback", "agree"):
        rec = Record(h.author, rec.seq - 1, [], {}, b"")
        rec.entries = [Entry(h.author, {"type": TAKEBACK if kind == "takeback" else AGREE},
                             0, {}, copy.deepcopy(h.base))]  # fmt: skip
    elif kind == "forfeit entry":
        rec.entries.append(
            Entry(h.author, {"type": FORFEIT, "record": h.n - 1}, 0, {},
                  forfeited(h.base, h.author, h.n - 1))
        )  # fmt: skip
    else:
        return None
    return f"record {kind}", rec


def _fields(t: Table, h: Honest, rnd: random.Random) -> tuple[str, str] | None:
    """The record's own fields, in its signed body: place, chain, game, side, signer."""
    data = copy.deepcopy(h.body)
    kind = rnd.choice(["n", "prev", "game", "side", "stranger", "format", "seq text", "steps"])
    if kind == "n":
        data["n"] = rnd.choice([h.n - 1, h.n + 1, 0, 1, -1, 10**12, "3"])
    elif kind == "prev":
        data["prev"] = rnd.choice([t.game.hash, "0" * 64, "", h.prev.upper()])
    elif kind == "game":
        data["game"] = rnd.choice(["adversary-x", "", 7])
    elif kind == "side":
        data["side"] = rnd.choice([h.victim, "referee", None])
    elif kind == "stranger":
        return kind, signing.sign(docs.dump(data), t.stranger)
    elif kind == "format":
        data["format"] = rnd.choice(["seki-2p-record/2", "seki-2p-reveal/1", None])
    elif kind == "seq text":
        data["seq"] = str(data["seq"])
    elif kind == "steps" and data["entries"]:
        entry = rnd.choice(data["entries"])
        entry["steps"] = rnd.choice([-2, -(10**9), "1", 1.5, True, None, [], 10**400])
    else:
        return None
    return f"field {kind}", t.sign(h, data)


def _times(t: Table, h: Honest, rnd: random.Random) -> tuple[str, str] | None:
    data = copy.deepcopy(h.body)
    minutes = {
        "ahead": h.now + 16, "ahead in tolerance": h.now + 14, "a day ahead": h.now + 1440,
        "back": h.last_minutes - 1, "a day back": h.last_minutes - 1440,
        "with the last": h.last_minutes, "at the start": -10**6,
    }  # fmt: skip
    kind = rnd.choice([*minutes, "far", "garbage"])
    if kind in minutes:
        data["written"] = at(minutes[kind])
    elif kind == "far":
        data["written"] = rnd.choice(["9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z"])
    else:
        data["written"] = rnd.choice(
            ["", "now", "2026-11-23T06:00:00+09:00", "2026-11-23 06:00:00", 20261123, None,
             "2026-02-30T00:00:00Z", "2026-11-23T06:00:00.5Z"]
        )  # fmt: skip
    return f"time {kind}", t.sign(h, data)


def _forfeit_here(t: Table, h: Honest, rnd: random.Random) -> tuple[str, str] | None:
    """A forfeit claim in place of the record (the victim wrote the record before, so no
    forfeit of a missing record is owed): at, or long after, the deadline."""
    party = t.party(h.author_data)
    base = party.agreed
    missing = rnd.choice([None, REVEAL])
    named = rnd.choice([h.n - 1, h.n - 2, h.n])
    action = {"type": FORFEIT, "record": named, **({"missing": missing} if missing else {})}
    if missing == REVEAL:
        public = {**forfeited(base, h.author, named), "result": {"how": "x"}}
    else:
        public = forfeited(base, h.author, named)
    party.seq += 1
    record = party._record([Entry(h.author, action, 0, {}, public)])
    written = at(rnd.choice([h.now, h.last_minutes + HOURS * 60, h.now + HOURS * 60]))
    return f"forfeit here ({missing or 'record'}, names {named - h.n:+d})", t.encode(
        h, record, written=written
    )


def _bytes(t: Table, h: Honest, rnd: random.Random) -> tuple[str, str] | None:
    body, _ = signing.split(h.text)
    try:
        return "bytes", signing.sign(mutate(body, rnd), t.keys[h.author])
    except Refusal:
        return None  # a body the signer refuses to sign (empty, a marker line) is never sent


MUTATIONS = {
    "steps": (_steps, 4),
    "claims": (_claims, 5),
    "commitments": (_commitments, 3),
    "openings": (_openings, 3),
    "held": (_held, 2),
    "actions": (_actions, 2),
    "records": (_records, 2),
    "fields": (_fields, 1),
    "times": (_times, 2),
    "forfeits": (_forfeit_here, 1),
    "bytes": (_bytes, 1),
}


def forged(t: Table, h: Honest, rnd: random.Random) -> Forged | None:
    """One mutation of the honest record; where the victim takes a claim in it, half of
    them are of its claims and steps."""
    if h.claimed and rnd.random() < 0.5:
        family = rnd.choice(["claims", "steps"])
    else:
        family = rnd.choices(list(MUTATIONS), [w for _, w in MUTATIONS.values()])[0]
    made = MUTATIONS[family][0](t, h, rnd)
    if made is None:
        return None
    label, out = made
    text = out if isinstance(out, str) else t.encode(h, out)
    return Forged(family, label, text, h.now)


# -- after the honest record: claims of the next place ---------------------------------------


def _won_by(base: dict, winner: str, last: int) -> dict:
    """A public form that says `winner` won by forfeit after record `last`, whatever the
    game's state: a lie the engine would not write (engine.forfeit ends a game once)."""
    reason = f"{other(winner)} sent nothing within the deadline after record {last}"
    result = {"winner": winner, "how": "forfeit", "rule": "deadline", "reason": reason}
    return {**base, "result": result, "step": OVER, "active": None}


def next_place(t: Table, h: Honest, rnd: random.Random) -> Forged | None:
    """What the author may send after its honest record (`h` follows it), before the
    victim answers: a forfeit claim (the stock client's, or forged), at or before the
    deadline, read at the victim's clock before or after it; a takeback (asked, or agreed
    unasked)."""
    party = t.party(h.author_data)
    base = party.agreed
    due = h.minutes + HOURS * 60
    kind = rnd.choice(["forfeit", "forfeit", "forfeit named", "forfeit won", "takeback", "agree"])
    if kind.startswith("forfeit"):
        try:
            record = party.forfeit(h.n - 1)
        except Refusal:
            return None
        if kind == "forfeit named":
            record.entries[0].action["record"] = rnd.choice([h.n - 2, h.n, "x"])
        elif kind == "forfeit won":  # the victim's win written into the claim
            record.entries[0].public = _won_by(base, h.victim, h.n - 1)
    else:
        record = party.takeback(TAKEBACK if kind == "takeback" else AGREE)
    written = rnd.choice([h.now, due - 1, due, due + 30])
    now = rnd.choice([h.now, written - 14, written, due + 120])
    text = files.record_text(t.game, record, h.n, h.prev, base, t.keys[h.author], {}, at(written))
    return Forged("next place", f"{kind} at {written - due:+d} min, read at {now - due:+d}",
                  text, now)  # fmt: skip


# -- at the end: the reveal ----------------------------------------------------------------


def forged_reveal(
    t: Table, author: str, found: list[Path], honest: dict, minutes: int, rnd: random.Random
) -> tuple[str, str, dict]:
    """The author's reveal (`honest`, its body) mutated: its `last` pin (another place,
    hash, an earlier record with its real hash), its time, secret, side or signer; the
    kind of mutation, the signed text and its body."""
    data = copy.deepcopy(honest)
    kind = rnd.choice(["n", "hash", "pin earlier", "time", "secret", "side", "signer"])
    key = t.keys[author]
    if kind == "n":
        data["last"]["n"] = rnd.choice([len(found) - 2, len(found), 0, 1, -1, "3", None])
    elif kind == "hash":
        data["last"]["hash"] = rnd.choice(["0" * 64, t.game.hash, "x", None])
    elif kind == "pin earlier":  # an earlier record, named with its real hash
        k = rnd.randrange(2, len(found) - 1)
        data["last"] = {"n": k, "hash": docs.sha256(docs.read_capped(found[k]))}
    elif kind == "time":
        last = deadlines.written(docs.read_capped(found[-1]), "last")
        back = clock.format_time(last - timedelta(seconds=1))
        data["written"] = rnd.choice([back, at(minutes + 16), at(minutes + 14), "x"])
    elif kind == "secret":
        mine = t.sides[other(author)].load().book.secret.hex()
        data["secret"] = rnd.choice([rnd.randbytes(32).hex(), mine, "", "zz"])
    elif kind == "side":
        data["side"] = other(author)
    else:
        key = t.stranger
    return kind, signing.sign(docs.dump(data), key), data
