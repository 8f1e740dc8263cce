"""The two-party exchange (docs/two-party.md): each side's records, as data.

A record is a list of entries. Each entry is one action of its author and the forced
steps its author's copy could take after it (or forced steps alone), the author's items
the rules showed (opened against the author's commitments), and the public form of the
state after it. The receiver opens what it is shown, retraces the entry on its own copy
and refuses a result it computes differently. Where its copy lacks a value (`Unknown`),
it takes the author's result as a claim, which `verify` checks when both sides reveal
their secrets at the end. A side's drawn slots are bound by its own secret and the other
side's latest contribution: at once if drawn before any choice of the side's record, else
when the other side's next record arrives, so no choice is made knowing a draw.
"""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Callable
from typing import cast, overload

from ..crypto.commitments import commit
from ..refusal import N_, Code, Phrase, Refusal, quoted
from ..rules.components import Components
from ..rules.cycle.setup import setup
from ..rules.decisions import ACTION_KINDS, current
from ..rules.engine import Run, carry_on, forfeit, handle, pending
from ..rules.state_types import State
from ..rules.turn import WAITING, drive, turn
from ..rules.views import redact_event, view
from ..rules.vocab import SIDES, Unknown, other
from . import claims
from . import knowledge as kn

RESIGN = "resign"  # a side concedes (rules/victory.py), in its own record
FORFEIT = "forfeit"  # a side claims the win: the other sent nothing within the deadline
REVEAL = "reveal"  # a forfeit's `missing`: the other's reveal, after the game's end
# A takeback (docs/two-party.md, "Takebacks"): a side asks to take back its last record
# before the other has answered it; the other agrees, and both go back to before it.
TAKEBACK, AGREE = "takeback", "agree_takeback"
ASIDES = (TAKEBACK, AGREE)  # records that leave the game's randomness alone

# Why a record ends (`Writing`, beside rules/turn.py's WAITING: the other side decides):
LACKED = "lacked"  # the copy cannot carry on without the other side's values
HELD = "held"  # the side's action needs them: held for the other side to compute
UNBOUND = "unbound"  # the side drew: bound with the other side's next contribution
UNOPENED = "unopened"  # the rules show items of the other side it has not opened yet


def shown_fields(action: dict, last_sealed: bool = False) -> tuple[str, ...]:
    """The fields of an action whose items the rules show now, as its kind of decision
    declares them (rules/decisions, `Kind.shows` and `Kind.sealed`): a sealed choice is
    opened by the side that chooses last, whose choice is held for the other to compute."""
    kind = ACTION_KINDS.get(action["type"])
    if kind is None:  # resign, plan, and the two-party asides: nothing of the hand shown
        return ()
    return kind.shows(action) + (kind.sealed if last_sealed else ())


Chooser = Callable[[State, Components, str], dict]  # (working copy, comp, side) -> action
# A person's chooser may also give None: an answer given before the decision asked now is
# taken back. Nothing is written then, and the record is built again from the side's
# saved knowledge, with the same chooser, which gives again the answers it keeps
# (`Side.turn`).
Answering = Callable[[State, Components, str], dict | None]


# The sections of docs/two-party.md a two-party refusal answers to (its `rule`; the text
# does not name it, so that the text written into records stays what it was).
RECEIVING = "two-party: Receiving a record"
OPENINGS = "two-party: Openings"
RECORDS = "two-party: Records"
THE_END = "two-party: The end, and verify"
DEADLINES = "two-party: Deadlines"
TAKEBACKS = "two-party: Takebacks"
PLAYING = "two-party: Playing"


class Cheat(Refusal):
    """A record the receiver's copy proves wrong: a bad opening or a different result. The
    message is a template filled with `params`, as any refusal's (refusal.py); `rule`
    names the section of docs/two-party.md it breaks (RECEIVING unless told); `code` and
    `at` are the refusal's own, passed on."""

    code = Code.CHEAT

    def __init__(
        self,
        message: str,
        /,
        *,
        code: Code | None = None,
        rule: str = RECEIVING,
        at: str | None = None,
        **params: object,
    ):
        super().__init__(message, code=code, rule=rule, at=at, **params)


@dataclasses.dataclass
class Entry:
    author: str
    action: dict | None  # public form; None: carry on (after the held action, if any)
    steps: int  # forced steps after; -1: the action's own rule needs the other side
    opened: dict[str, tuple[str, str]]  # own handle -> (real id, salt hex)
    public: State | None  # public form after the entry (None when steps == -1)


@dataclasses.dataclass
class Record:
    side: str
    seq: int
    entries: list[Entry]
    commitments: dict[str, str]  # own handles bound or dealt since the last record
    contribution: bytes


def first_difference(a: object, b: object, path: str = "") -> str | None:
    """The path of the first place two public forms differ, None if they are equal (a
    key one lacks differs, even where the other holds null)."""
    if a == b:  # the interpreter's comparison first: the forms compared are mostly equal
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if (k in a) != (k in b):
                return f"{path}/{k}"
            found = first_difference(a[k], b[k], f"{path}/{k}")
            if found is not None:
                return found
        return None
    return None if a == b else path or "/"


def only_action(record: Record) -> dict | None:
    """The action of a record of one entry, which names its kind (twoparty/kinds.py: a
    takeback asked or agreed, a resignation, a forfeit), else None."""
    return record.entries[0].action if len(record.entries) == 1 else None


def aside(record: Record) -> str | None:
    """TAKEBACK or AGREE if the record is one, else None."""
    only = only_action(record)
    kind = only.get("type") if isinstance(only, dict) else None
    return kind if kind in ASIDES else None


def forfeited(public: State, winner: str, last: int | None, missing: str | None = None) -> State:
    """The public form of a game won by forfeit (docs/two-party.md, "Deadlines"), as the
    engine ends it (engine.forfeit): the other side sent nothing after record `last`
    within the game's deadline, or, with `missing` REVEAL, it did not reveal its secret
    within the deadline after the game ended with record `last` (None: a replayed claim
    that names none, `Party.forfeit`)."""
    loser = other(winner)
    if missing == REVEAL:
        rule, reason = (
            "reveal",
            f"{loser} did not reveal its secret within the deadline after record {last}",
        )
    else:
        rule, reason = "deadline", f"{loser} sent nothing within the deadline after record {last}"
    state, _ = forfeit(public, loser, rule, reason)
    return state


def forfeit_missing(public: State) -> str | None:
    """What a forfeit claimed now would say is missing: the other side's record while the
    game goes on, its reveal once it ended by the rules; None: no forfeit can be claimed
    (the game already ended by forfeit)."""
    result = public["result"]
    if result is None:
        return "record"
    return REVEAL if result["how"] != "forfeit" else None


def contribution(secret: bytes, seq: int) -> bytes:
    """A record's fresh randomness: unforeseeable without the secret, and not chosen."""
    return kn.prf(secret, b"contribution", str(seq).encode())


def start(comp: Components, books: dict[str, kn.Book], options: dict | None = None) -> State:
    """The public form of the set-up game: slots everywhere the setup draws, and each
    side's chart-placed blocks under handles it dealt (both sides at once, in memory)."""
    public = start_half(comp, books[SIDES[0]], options)
    second = dealt(start_half(comp, books[SIDES[1]], options), SIDES[1])
    return adopt_dealt(public, comp, SIDES[1], second)


def start_half(comp: Components, book: kn.Book, options: dict | None = None) -> State:
    """The set-up game with the book's side's chart-placed blocks under its handles; the
    other side's are still named (the chart shows them) until its join deals them.
    `options`: the game's (game.txt), which the engine reads as play goes on."""
    state, _ = setup(kn.knowing(comp), None, options)
    hidden = kn.hidden_reals(state, comp, kn.shown_names(state, comp))
    book.deal(sorted(b for b in hidden if comp.blocks[b].side == book.side))
    return kn.replace(state, book.own)


def dealt(public: State, side: str) -> dict[str, str]:
    """Where each of a side's dealt handles stands (its join shows this)."""
    return {
        h: w
        for h, w in public["blocks"].items()
        if kn.is_handle(h) and kn.handle_side(h) == side and "-f" in h
    }


def adopt_dealt(public: State, comp: Components, side: str, handles: dict[str, str]) -> State:
    """The other side's chart-placed blocks under the handles its join deals: at each
    place as many handles as it has blocks there (Refusal otherwise)."""
    named = {
        b: w
        for b, w in public["blocks"].items()
        if not kn.is_handle(b) and b in comp.blocks and comp.blocks[b].side == side
    }
    hidden = kn.hidden_reals(public, comp, kn.shown_names(public, comp)) & set(named)
    by_place: dict[str, list[str]] = {}
    for b in sorted(hidden):
        by_place.setdefault(named[b], []).append(b)
    offered: dict[str, list[str]] = {}
    for h, w in sorted(handles.items()):
        if not kn.is_handle(h) or kn.handle_side(h) != side:
            raise Cheat(N_("{handle} is not a handle of {side}"), rule=RECORDS, handle=h, side=side)
        offered.setdefault(w, []).append(h)
    if {w: len(v) for w, v in offered.items()} != {w: len(v) for w, v in by_place.items()}:
        raise Cheat(
            N_("{side}'s dealt handles do not stand where the setup chart puts its blocks"),
            rule=RECORDS,
            side=side,
        )
    names = {b: h for w, bs in by_place.items() for b, h in zip(bs, offered[w], strict=True)}
    return kn.replace(public, names)


class Party:
    """One side: its book, the agreed public form, and its commitments and the other's."""

    def __init__(self, side: str, comp: Components, book: kn.Book, public: State):
        self.side = side
        self.comp = comp
        self.kc = kn.knowing(comp)
        self.book = book
        self.public = public
        self.seq = 0
        # an action whose rule needs the reader (None: a held entry that names none)
        self.held: tuple[str, dict | None] | None = None
        self.theirs: dict[str, str] = {}  # the other side's commitments
        self.opened: set[str] = set()  # own handles shown so far
        self.fresh: set[str] = set(book.own.values())  # own handles not yet committed
        self.owed: dict[str, tuple[str, str]] = {}  # own handles to open in the next record
        self.agreed = public  # the last public form both sides hold (records' changes start here)
        self.seen: list = []  # the events of the other side's last record, as this side saw them
        self.contribution = b""  # the randomness of the other side's last record
        self.their_seq: int | None = None  # the other side's last record read (its seq)
        # the other side's slots out of its piles when this side last sent randomness: it
        # binds them all as it reads that record, and commits each in its next record
        self.binding: list[str] = []
        # the last working copy made (`copy`): the public form and book it was made of,
        # and the copy marshalled; a side's turn asks for the same one many times
        self._copied: tuple[State, dict, dict, bytes] | None = None

    # -- kept between runs (sealed to the side's own key) --------------------------------

    def to_data(self) -> dict:
        b = self.book
        return {
            "side": self.side,
            "book": {"secret": b.secret.hex(), "own": b.own, "shown": b.shown, "dealt": b.dealt},
            "public": self.public,
            "agreed": self.agreed,
            "seq": self.seq,
            "held": list(self.held) if self.held else None,
            "theirs": self.theirs,
            "opened": sorted(self.opened),
            "fresh": sorted(self.fresh),
            "owed": {h: list(v) for h, v in self.owed.items()},
            "seen": self.seen,
            "contribution": self.contribution.hex(),
            "their_seq": self.their_seq,
            "binding": self.binding,
        }

    @classmethod
    def from_data(cls, comp: Components, data: dict) -> Party:
        b = data["book"]
        book = kn.Book(data["side"], bytes.fromhex(b["secret"]), b["own"], b["shown"], b["dealt"])
        party = cls(data["side"], comp, book, data["public"])
        party.agreed = data["agreed"]
        party.seq = data["seq"]
        party.held = tuple(data["held"]) if data["held"] else None
        party.theirs = data["theirs"]
        party.opened = set(data["opened"])
        party.fresh = set(data["fresh"])
        party.owed = {h: tuple(v) for h, v in data["owed"].items()}
        party.seen = data["seen"]
        party.contribution = bytes.fromhex(data["contribution"])
        party.their_seq = data["their_seq"]
        party.binding = data.get("binding", [])  # none kept before issue 28
        return party

    @property
    def result(self) -> dict | None:
        """How the game ended, in the agreed public form; None while it goes on."""
        return self.public["result"]

    # -- the working copy --------------------------------------------------------------

    def copy(self) -> State:
        """A fresh working copy (`kn.working`). The public form is replaced, never changed
        in place, so the same one with the same book makes the same copy: unmarshalling
        the last one is a few times quicker than making it again."""
        book, made = self.book, self._copied
        if made is None or made[0] is not self.public or made[1:3] != (book.own, book.shown):
            copied = marshal.dumps(cast(dict, kn.working(self.public, book)))
            made = self._copied = (self.public, dict(book.own), dict(book.shown), copied)
        return marshal.loads(made[3])

    def _unshown(self) -> dict[str, str]:
        """Own items not yet shown (real id -> handle): the other side writes them so."""
        return {r: h for r, h in self.book.own.items() if h not in self.opened}

    def _open(self, public: State, events: list) -> dict[str, tuple[str, str]]:
        """Own items the rules now show (in the public places of `public`, the copy's
        concealed form, or in public events), not yet opened."""
        shown = kn.names_in(public)
        for e in events:
            shown |= kn.names_in({k: v for k, v in e.items() if k != "private"})
        out = {}
        for real, h in self.book.own.items():
            if real in shown and h not in self.opened:
                out[h] = (real, self.book.salt(h).hex())
                self.opened.add(h)
        return out

    def _unopened(self, state: State) -> list[str]:
        """The other side's handles in public places of the copy: it owes their opening."""
        public = kn.names_in(view(state, self.kc, None))
        return sorted(h for h in public if kn.is_handle(h) and kn.handle_side(h) != self.side)

    def _conceal(self, state: State) -> State:
        return kn.conceal(state, self.comp, self.book)

    # -- writing a record --------------------------------------------------------------

    @overload
    def write(self, choose: Chooser) -> Record: ...

    @overload
    def write(self, choose: Answering) -> Record | None: ...

    def write(self, choose: Answering) -> Record | None:
        """This side's next record: the held action, forced steps and its own decisions,
        as far as its copy knows; None if `choose` took an answer back (Answering)."""
        self.seq += 1
        writing = Writing(self, self.owed)
        self.owed = {}
        if self.held is not None:
            writing.carry_held()
        steps = turn(writing)
        if drive(steps, lambda state: choose(state, self.kc, self.side)) is None:
            return None
        return self._record(writing.entries)

    def _entry(
        self, action: dict | None, new: State, events: list, opened: dict
    ) -> tuple[Entry, bool]:
        """The entry of an action just handled and the forced steps after it; True if the
        copy stopped for want of the other side's values."""
        run = carry_on(new, self.kc)
        run.events[:0] = events
        return self._after(action, run, opened), run.lacked is not None

    def _after(self, action: dict | None, run: Run, opened: dict) -> Entry:
        public = self._conceal(run.state)
        opened = {**opened, **self._declared(action), **self._open(public, run.events)}
        self.public = public
        steps = run.steps
        public_action = None if action is None else self._public_action(action)
        return Entry(self.side, public_action, steps, opened, self.public)

    def _declared(
        self, action: dict | None, last_sealed: bool = False
    ) -> dict[str, tuple[str, str]]:
        """Openings of the own items the rules show with `action` (`shown_fields`)."""
        opened: dict[str, tuple[str, str]] = {}
        if action is None:
            return opened
        for name in shown_fields(action, last_sealed):
            for real in kn.names_in(action.get(name)):
                h = self.book.own.get(real)
                if h is not None and h not in self.opened:
                    opened[h] = (real, self.book.salt(h).hex())
                    self.opened.add(h)
        return opened

    def _held(self, action: dict) -> Entry:
        """An action whose own rule needs the other side's values: a sealed choice made
        last, a Loyalty Challenge, a move or muster that overruns blocks it does not
        know. What the rules show of it is opened, so the other side can compute it."""
        opened = self._declared(action, last_sealed=True)
        self.held = (self.side, self._public_action(action))
        self.public = kn.open_in(self.public, self.comp, opened)
        return Entry(self.side, self._public_action(action), -1, opened, None)

    def _public_action(self, action: dict) -> dict:
        return kn.replace(action, self._unshown())

    def resign(self) -> Record:
        """This side's record conceding the game (rule 2, docs/rulings.md)."""
        self.seq += 1
        opened, self.owed = self.owed, {}
        action = {"type": RESIGN}
        new, events = handle(self.copy(), self.kc, self.side, action)
        return self._record([self._entry(action, new, events, opened)[0]])

    def forfeit(self, last: int | None) -> Record:
        """This side's claim that the other forfeits: while the game goes on, it sent
        nothing after record `last` (this side's) within the game's deadline; once the
        game has ended (with record `last`), it did not reveal its secret within the
        deadline. The side's files check the times and the reveals. (A claim replayed
        from a record may name no record, None: the record made then differs from it.)"""
        missing = forfeit_missing(self.public)
        if missing is None:
            raise Refusal(
                N_("the game has already ended by forfeit"), code=Code.NOT_ASKED, rule=DEADLINES
            )
        self.seq += 1
        action: dict = {"type": FORFEIT, "record": last}
        if missing == REVEAL:
            action["missing"] = REVEAL
        opened, self.owed = self.owed, {}  # the other side opens them in the form it holds
        self.public = forfeited(self.public, self.side, last, action.get("missing"))
        return self._record([Entry(self.side, action, 0, opened, self.public)])

    def join(self) -> Record:
        """The first record (seq 0): commitments to the chart-placed blocks' handles, and
        no randomness: both sides commit to their secrets before either contributes."""
        return self._record([])

    def _record(self, entries: list[Entry]) -> Record:
        """The record of `entries`, with the commitments to the handles bound or dealt
        since the last one and, after the join, this record's randomness. Its public form
        is now the one both sides hold (the next record's changes start from it)."""
        commitments = {h: self.book.commitment(h) for h in sorted(self.fresh)}
        self.fresh = set()
        self.agreed = self.public
        fresh = contribution(self.book.secret, self.seq) if self.seq else b""
        self.binding = kn.unbound_out(self.public, other(self.side)) if fresh else []
        return Record(self.side, self.seq, entries, commitments, fresh)

    def takeback(self, kind: str) -> Record:
        """A takeback request (TAKEBACK) or the agreement to one (AGREE, made on this side
        as restored to before the record taken back). Neither counts in the side's
        sequence nor carries a contribution: a takeback cannot re-draw anything."""
        return Record(
            self.side, self.seq, [Entry(self.side, {"type": kind}, 0, {}, self.public)], {}, b""
        )

    # -- reading the other side's record -----------------------------------------------

    def read(self, record: Record) -> None:
        """Check and take in the other side's record; raise Cheat where it is proved wrong.
        A takeback record is only checked (its side's files restore what it undoes)."""
        if record.side != other(self.side):
            raise Cheat(N_("the record is not the other side's"))
        if aside(record) is not None:
            claimed = record.entries[0].public  # None: a held entry (steps -1), no form
            theirs = None if claimed is None else kn.open_in(claimed, self.comp, self.owed)
            if record.commitments or record.contribution or theirs != self.public:
                raise Cheat(
                    N_("{side}'s takeback record is not the game as it stands"),
                    rule=TAKEBACKS,
                    side=record.side,
                )
            return
        self._follows(record)
        self._commit(record)
        held = [i for i, e in enumerate(record.entries) if e.steps < 0]
        if held and held != [len(record.entries) - 1]:  # its author's copy stopped there
            raise Cheat(N_("{side}'s held action does not end its record"), side=record.side)
        self.seen = []
        for e in record.entries:
            self._retrace(e)
        self.agreed = self.public
        # own items the other side's steps put in public places: open them next record
        self.owed = self._open(self._conceal(self.copy()), [])
        if self.owed:
            self.public = kn.open_in(self.public, self.comp, self.owed)
        self._contributed(record)
        if self.held is not None and self.public["result"] is None:
            self._check_held(self.held)
        self._answerable(record)

    def _follows(self, record: Record) -> None:
        """A record is the other side's next: its join first (seq 0), then 1, 2, ... (a
        takeback's record does not count; agreed, both sides go back to before it). Its
        randomness: none in the join (both sides commit to their secrets before either
        contributes, so neither can choose a secret that draws well), 32 bytes in every
        later record (docs/two-party.md, "Draws without a dealer")."""
        expected = 0 if self.their_seq is None else self.their_seq + 1
        if record.seq != expected:
            raise Cheat(
                N_("{side}'s record is its number {seq} where {expected} comes next"),
                rule=RECORDS,
                side=record.side,
                seq=record.seq,
                expected=expected,
            )
        size = len(contribution(b"", 1)) if record.seq else 0
        if len(record.contribution) != size:
            raise Cheat(
                N_("{side}'s record carries {n} bytes of randomness where it owes {size}"),
                rule=RECORDS,
                side=record.side,
                n=len(record.contribution),
                size=size,
            )
        self.their_seq = record.seq

    def _contributed(self, record: Record) -> None:
        """This side's drawn slots not yet bound, bound with the other side's randomness
        (none in its join)."""
        self.contribution = record.contribution
        if record.contribution:
            self.fresh.update(kn.bind(self.copy(), self.comp, self.book, record.contribution))

    def _commit(self, record: Record) -> None:
        """Take in the other side's new commitments, before its openings are checked (a
        record commits what it binds and may open it at once). Each is to one of its own
        handles not committed before: a commitment is never replaced, so an opening is
        checked against the first one (a sealed bid stays the one committed). Nor is one
        made late: the slots the other side bound as it read this side's randomness
        (`binding`) are committed by its next record; one left uncommitted could be
        committed when it is opened, to the card it likes then (a sealed bid chosen after
        seeing the other's)."""
        for h in record.commitments:
            if not kn.is_handle(h) or kn.handle_side(h) != record.side:
                raise Cheat(
                    N_("{handle} is not a handle of {side}"),
                    rule=OPENINGS,
                    handle=h,
                    side=record.side,
                )
            if h in self.theirs:
                raise Cheat(
                    N_("{side} commits {handle} again: a commitment cannot be replaced"),
                    rule=OPENINGS,
                    side=record.side,
                    handle=h,
                )
        late = set(self.binding) - set(self.theirs) - set(record.commitments)
        if late:
            raise Cheat(
                N_(
                    "{side} does not commit {handle}, which it has bound: a draw is committed "
                    "in the record after its binding"
                ),
                rule=OPENINGS,
                side=record.side,
                handle=min(late),
            )
        self.theirs.update(record.commitments)

    def _check_held(self, held: tuple[str, dict | None]) -> None:
        """The action held for this side to compute, tried now as this side's next record
        will take it: an action the rules refuse, or one that needs what only its author
        knows, is refused with the record that holds it, or it would stop every later
        record of this side. A held action of this side's own that the other side's
        record left uncomputed is refused too (its author cannot compute it)."""
        author, action = held
        if author == self.side:
            raise Cheat(
                N_("{side}'s record does not compute the action this side held"),
                side=other(self.side),
            )
        try:
            handle(self.copy(), self.kc, author, kn.replace(action, self.book.reals()))
        except Unknown as lack:
            raise Cheat(
                N_("{side} holds an action this side cannot compute either ({what})"),
                side=author,
                what=lack.what,
            ) from None
        except Refusal as refused:
            raise Cheat(
                N_("{side}'s held action is refused: {refused}"), side=author, refused=refused
            ) from None

    def _answerable(self, record: Record) -> None:
        """A record ends only where its author's copy stops (`write`), its own items the
        rules show opened: the game over, an action held for this side, this side's forced
        steps, decision or openings next, or the author's draws waiting for this side's
        randomness (drawn, not committed). One that stops before a decision or a step only
        its author can take, or leaves its items shown unopened, is refused: this side,
        with nothing to do (or waiting for those openings), would answer with an empty
        record, and the game would stand still, each empty record resetting the deadline."""
        if self.public["result"] is not None:
            return
        shown = self._unopened(self.copy())
        if shown:  # this side's client would wait for their opening, as a table would
            raise Cheat(
                N_("{side}'s record leaves {handle} shown but not opened"),
                rule=OPENINGS,
                side=record.side,
                handle=shown[0],
            )
        if self.held is not None or self.owed:
            return
        if [h for h in kn.unbound_out(self.public, record.side) if h not in self.theirs]:
            return  # its draws are bound with this side's next randomness
        run = carry_on(self.copy(), self.kc)
        if run.steps:
            return
        if run.lacked is None:
            if not any(d["side"] == record.side for d in pending(run.state)):
                return  # this side decides next (both sides: the author has decided)
            kind = current(run.state)
            raise Cheat(
                N_("{side}'s record stops where it owes a decision ({decision})"),
                rule=RECORDS,
                side=record.side,
                decision=kind.name if kind is not None else "",
            )
        raise Cheat(
            N_("{side}'s record stops before a step only it can take ({what})"),
            rule=RECORDS,
            side=record.side,
            what=run.lacked,
        )

    def _forfeit(self, e: Entry) -> None:
        """A forfeit claim: of a record while the game goes on, of a reveal once it has
        ended by the rules; never after a forfeit (rule 2 ends the game once). It is the
        game both sides hold (not this side's own openings since: its author does not
        know them) with the author's openings, ended by forfeit; its time the side's
        files check (twoparty/deadlines.py)."""
        last = e.action.get("record") if isinstance(e.action, dict) else None
        missing = e.action.get("missing") if isinstance(e.action, dict) else None
        both = kn.open_in(self.agreed, self.comp, e.opened)
        expected = forfeit_missing(both)
        if (missing or "record") != expected:
            kind = missing or "record"
            words = {"record": N_("record"), REVEAL: N_("reveal")}
            raise Cheat(
                N_("{side}'s forfeit claim is of a {missing} not owed"),
                rule=DEADLINES,
                side=e.author,
                missing=Phrase(words[kind])
                if isinstance(kind, str) and kind in words
                else quoted(kind),
            )
        if not isinstance(last, int) or e.public != forfeited(both, e.author, last, missing):
            raise Cheat(
                N_("{side}'s forfeit claim is not the game ended by forfeit"),
                rule=DEADLINES,
                side=e.author,
            )
        self.public = e.public

    def _retrace(self, e: Entry) -> None:
        for h, (real, salt) in e.opened.items():
            if self.theirs.get(h) != commit(real, bytes.fromhex(salt)):
                raise Cheat(
                    N_("{handle} does not open to {real}"), rule=OPENINGS, handle=h, real=real
                )
            self.book.show(h, real)
        if e.opened:
            self.public = kn.open_in(self.public, self.comp, e.opened)
        if e.steps < 0:
            self._strays(self.copy(), e.action, e.author)
            self.held = (e.author, e.action)
            return
        if isinstance(e.action, dict) and e.action.get("type") == FORFEIT:
            self._forfeit(e)
            return
        state = self.copy()
        events: list = []
        author, action = (e.author, e.action) if e.action is not None else self.held or ("", None)
        self.held = None
        if action is not None:
            self._strays(state, action, e.author)
            action = kn.replace(action, self.book.reals())
            state, events = self._take(state, e, author, action)
        state, found = self._forced(state, e)
        self.seen += [redact_event(x, self.side) for x in events + found]
        mine = kn.conceal(state, self.comp, self.book, self._unshown())
        where = first_difference(mine, e.public)
        if where is not None or e.public is None:  # (None differs from `mine` at "/")
            raise Cheat(
                N_("{side}'s result differs from this side's engine at {where}"),
                side=e.author,
                where=where,
            )
        self.public = e.public

    def _strays(self, state: State, action: dict | None, author: str) -> None:
        """An action names only items in the game as this side's copy holds them: a
        handle it does not hold, or the id of an item it holds under a handle (one not
        opened to it), is refused here, before a rule looks it up."""
        named = kn.names_in(kn.replace(action, self.book.reals()))
        items = {
            n for n in named if kn.is_handle(n) or n in self.comp.blocks or n in self.comp.cards
        }
        strays = items - kn.names_in(state)
        if strays:
            raise Cheat(
                N_("{side}'s action names {handle}, not in the game"),
                side=author,
                handle=min(strays),
            )

    def _take(self, state: State, e: Entry, author: str, action: dict) -> tuple[State, list]:
        """The entry's action (or the held one it computes) on this side's copy; where the
        copy lacks the entry's author's values, only as a claim the rules allow it
        (twoparty/claims.py: a Loyalty Challenge of this side's, refuted or not)."""
        try:
            return handle(state, self.kc, author, action)
        except Unknown as lack:
            answered = claims.refutation(state, self.kc, author, action, e.author)
            if answered is None:
                raise _claims_nothing(e.author, lack.what) from None
            return answered

    def _forced(self, state: State, e: Entry) -> tuple[State, list]:
        """The entry's forced steps, exactly as many as it says, taken by this side's
        engine; a step the copy lacks the author's values for only as a claim the rules
        allow (twoparty/claims.py: it has no legal deployment)."""
        events: list = []
        left = e.steps
        while left:
            run = carry_on(state, self.kc, limit=left)
            state, left = run.state, left - run.steps
            events += run.events
            if not left:
                break
            if run.lacked is None:
                raise Cheat(
                    N_("{side}'s entry takes {steps} forced steps where the game stops after {n}"),
                    side=e.author,
                    steps=e.steps,
                    n=e.steps - left,
                )
            answered = claims.forced_step(state, self.kc, e.author)
            if answered is None:
                raise _claims_nothing(e.author, run.lacked)
            state, left = answered[0], left - 1
            events += answered[1]
        return state, events


class Writing:
    """A record being written, as the side's copy in the turn loop (rules/turn.py): the
    copy carried on from the agreed public form before each decision, each step written
    as an entry, and the turn ended where the copy lacks the other side's values or the
    protocol wants its next record first."""

    def __init__(self, party: Party, opened: dict[str, tuple[str, str]]):
        self.party = party
        self.entries: list[Entry] = []
        self.opened = opened  # owed openings, written with the record's first entry
        self.decided = False

    def carry_held(self) -> None:
        """The entry of the held action (`Party.held`), computed now that the other
        side's record has come."""
        p = self.party
        author, action = cast(tuple[str, dict | None], p.held)
        p.held = None
        try:
            new, events = handle(p.copy(), p.kc, author, kn.replace(action, p.book.reals()))
        except Unknown as lack:  # the rules need both sides' secrets at once: a bug
            # a mapping with a type: `handle` refuses anything else before it reads more
            kind = cast(dict, action)["type"]
            raise RuntimeError(f"neither side can compute {kind}: {lack}") from None
        self.entries.append(p._entry(None, new, events, self.opened)[0])
        self.opened = {}

    def asked(self) -> tuple[State, str | None]:
        p = self.party
        if p.public["result"] is not None:
            return p.public, WAITING
        run = carry_on(p.copy(), p.kc)
        if run.steps or self.opened:
            self.entries.append(p._after(None, run, self.opened))
            self.opened = {}
        state = run.state
        if run.lacked is not None:
            return state, LACKED
        if not self.decided and p.contribution:  # drawn before any choice of this record
            p.fresh.update(kn.bind(state, p.comp, p.book, p.contribution))
        if not any(d["side"] == p.side for d in pending(state)):
            return state, WAITING
        if kn.unbound_out(state, p.side):
            return state, UNBOUND
        if p._unopened(state):
            return state, UNOPENED
        return state, None

    def take(self, state: State, action: dict) -> str | None:
        p = self.party
        self.decided = True
        try:
            new, events = handle(state, p.kc, p.side, action)
        except Unknown:
            self.entries.append(p._held(action))
            return HELD
        entry, stopped = p._entry(action, new, events, {})
        self.entries.append(entry)
        return LACKED if stopped else None


def _claims_nothing(side: str, what: object) -> Cheat:
    """A record whose step needs the author's unseen values where the rules let it claim
    nothing (twoparty/claims.py)."""
    return Cheat(
        N_("{side}'s record needs what only it knows ({what}) where it may claim nothing"),
        side=side,
        what=what,
    )
