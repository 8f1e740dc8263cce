"""Checking a finished two-party game once both sides have revealed their secrets.

Two checks, each naming the first record that fails it:
- **honesty**: each side's records are exactly what its engine, with its revealed secret
  and its own recorded choices, writes — so every opening, binding, commitment,
  contribution and claimed result is the one the rules and its secret give;
- **knowledge**: a copy that knows both sides' secrets retraces every entry and reaches
  the same public form, so no step was decided on what its computing side did not know.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from ..refusal import N_, Phrase, Refusal
from ..rules.components import Components
from ..rules.engine import carry_on, handle
from ..rules.state import clone
from ..rules.state_types import State
from ..rules.vocab import SIDES, other
from . import kinds
from . import knowledge as kn
from .exchange import (
    AGREE,
    FORFEIT,
    TAKEBACKS,
    THE_END,
    Cheat,
    Entry,
    Party,
    Record,
    adopt_dealt,
    first_difference,
    start,
    start_half,
)
from .kinds import named


def replay(comp: Components, secrets: dict[str, bytes], records: list[Record]) -> int:
    """Check every record; return how many entries were retraced with full knowledge.
    Raises Cheat naming the first record that is not what its author's secret gives."""
    audit = Audit(comp, secrets)
    audit.joins(records[:2])
    for record in records[2:]:
        audit.record(record)
    return audit.retraced


class Audit:
    """The replay, one record at a time (a reader of files decodes each record's changes
    from `base`, the public form its reader held).

    With one side's secret only (the other forfeited by not revealing it), the replay is
    that side's: its records are checked for honesty, and the other's are taken in as
    its engine took them during the game; the knowledge check needs both secrets."""

    def __init__(
        self,
        comp: Components,
        secrets: dict[str, bytes],
        dealt: dict[str, str] | None = None,
        options: dict | None = None,
    ):
        books = {s: kn.Book(s, secrets[s]) for s in SIDES if s in secrets}
        if len(books) == len(SIDES):
            public = start(comp, books, options)
        else:  # the unrevealed side's chart-placed blocks under the handles its join dealt
            (known,) = books
            first = start_half(comp, books[known], options)
            public = adopt_dealt(first, comp, other(known), dealt or {})
        self.parties = {s: Party(s, comp, b, public) for s, b in books.items()}
        self.observer = Observer(comp, books, public) if len(books) == len(SIDES) else None
        self.retraced = 0
        self.comp = comp
        self.kept: list[tuple[dict, dict]] = []  # both sides and the observer after each record
        # With both secrets, each record as it stands in the game (a record taken back is
        # dropped): its number, the whole state after it, its events (`seki replay`).
        self.played: list[Played] = []

    @property
    def unrevealed(self) -> str | None:
        """The side whose secret the replay lacks (None: it has both)."""
        missing = [s for s in SIDES if s not in self.parties]
        return missing[0] if missing else None

    def replayed(self) -> list[Played]:
        """The records as the game stands (`played`), every item under its real id: a slot
        drawn is bound only at its side's next record, so the names are the books' at
        the end of the game; the blocks never drawn stay in their bags under the side's
        blocks left over (no view tells them apart: a bag is only counted)."""
        names = {h: r for party in self.parties.values() for h, r in party.book.reals().items()}
        return [
            p._replace(
                state=self._named(p.state, names),
                stages=tuple((self._named(s, names), e) for s, e in p.stages),
            )
            for p in self.played
        ]

    def _named(self, state: State, names: dict[str, str]) -> State:
        named = cast(State, kn.replace(state, names))
        for side in SIDES:
            slots = sorted(
                b for b in named["blocks"] if kn.is_handle(b) and kn.handle_side(b) == side
            )
            if not slots:
                continue
            left = sorted(
                b for b, spec in self.comp.blocks.items()
                if spec.side == side and b not in named["blocks"]
            )  # fmt: skip
            for slot, block in zip(slots, left, strict=False):
                named["blocks"][block] = named["blocks"].pop(slot)
        return named

    def base(self, author: str) -> State:
        reader = self.parties.get(other(author))
        return (reader if reader is not None else self.parties[author]).agreed

    def joins(self, records: list[Record]) -> None:
        joins = {r.side: r for r in records}
        if set(joins) != set(SIDES) or any(r.seq != 0 for r in joins.values()):
            raise Cheat(N_("the game does not open with one join of each side"), rule=THE_END)
        for side, join in joins.items():
            if side in self.parties:
                _same(join, self.parties[side].join())
        for side, join in joins.items():
            if other(side) in self.parties:
                self.parties[other(side)].read(join)
        self._keep()  # after the joins
        self._keep()

    def _keep(self) -> None:
        sides = {s: clone(p.to_data()) for s, p in self.parties.items()}
        seen = self.observer
        if seen is None:
            self.kept.append((sides, {}))
            return
        self.kept.append(
            (sides, {"public": seen.public, "held": seen.held, "opened": set(seen.opened)})
        )

    def _go_back(self, to: int) -> None:
        """Both sides and the observer as they were after the `to`-th record checked."""
        sides, seen = self.kept[to]
        self.parties = {s: Party.from_data(self.comp, data) for s, data in sides.items()}
        if self.observer is None:
            return
        self.observer.books = {s: p.book for s, p in self.parties.items()}
        self.observer.public, self.observer.held = seen["public"], seen["held"]
        self.observer.opened = set(seen["opened"])

    def record(self, record: Record) -> None:
        kind = kinds.of(record)
        if kind.aside:
            self._aside(record, kind)
            return
        n = len(self.kept)  # the record's number (n): two joins, then one kept a record
        self._record(record)
        seen = self.observer
        if seen is not None and seen.state is not None:
            told = [e for _, events in seen.stages for e in events]
            stages = tuple(seen.stages) if len(seen.stages) > 1 else ()
            self.played.append(Played(n, seen.state, told, stages))
            seen.stages = []
        self._keep()

    def _aside(self, record: Record, kind: kinds.Kind) -> None:
        """A takeback asked, or agreed: then both sides go back to before the record."""
        if kind.name == AGREE:
            if len(self.kept) < 3:
                raise Cheat(
                    N_("{record}: a takeback of nothing"), rule=TAKEBACKS, record=named(record)
                )
            taken = len(self.kept) - 2  # the record asked back: the ask was kept after it
            self._go_back(taken - 1)
            if self.played and self.played[-1].n == taken:
                self.played.pop()  # the record taken back is no longer the game's
        if record.side in self.parties:
            _same(record, kind.remake(self.parties[record.side], record))
        if other(record.side) in self.parties:
            self.parties[other(record.side)].read(record)
        self._keep()

    def _record(self, record: Record) -> None:
        author = self.parties.get(record.side)
        if author is None:  # unrevealed: taken in as the other side's engine did
            self.parties[other(record.side)].read(record)
            return
        where = named(record)
        if any(record.commitments.get(h) != author.book.commitment(h) for h in author.fresh):
            raise Cheat(
                N_("{record}: its commitments are not what its secret gives (its draws)"),
                rule=THE_END,
                record=where,
            )
        try:
            made = kinds.of(record).remake(author, record)
        except Refusal as refused:
            raise Cheat(
                N_("{record}: with its secret, its choices are refused: {refused}"),
                rule=THE_END,
                record=where,
                refused=refused,
            ) from None
        _same(record, made)
        for i, e in enumerate(record.entries):
            if self.observer is not None:
                self.observer.retrace(e, _entry_named(where, i, e))
            self.retraced += 1
        if other(record.side) in self.parties:
            self.parties[other(record.side)].read(record)


class Played(NamedTuple):
    """A record as the game stands with both secrets: its number, the whole state after
    it, and its events (with their private parts: the replay shows what it may); of a
    record of several entries, the state after each and its events."""

    n: int
    state: State
    events: list
    stages: tuple[tuple[State, list], ...] = ()


def _same(recorded: Record, made: Record) -> None:
    where = named(recorded)
    for field in ("seq", "commitments", "contribution"):
        if getattr(recorded, field) != getattr(made, field):
            raise Cheat(
                N_("{record}: its {field} are not what its secret gives"),
                rule=THE_END,
                record=where,
                field=field,
            )
    if len(recorded.entries) != len(made.entries):
        raise Cheat(
            N_("{record}: {n} entries where its engine makes {made}"),
            rule=THE_END,
            record=where,
            n=len(recorded.entries),
            made=len(made.entries),
        )
    for i, (a, b) in enumerate(zip(recorded.entries, made.entries, strict=True)):
        diff = _entry_difference(a, b)
        if diff is not None:
            raise Cheat(
                "{entry}: {difference}",
                rule=THE_END,
                entry=_entry_named(where, i, a),
                difference=diff,
            )


def _entry_difference(a: Entry, b: Entry) -> Phrase | None:
    if a.action != b.action:
        return Phrase(N_("its action is not the one its engine took"))
    if a.opened != b.opened:
        return Phrase(N_("its openings are not what its secret gives"))
    if a.steps != b.steps:
        return Phrase(
            N_("it takes {n} forced steps where its engine takes {made}"), n=a.steps, made=b.steps
        )
    if a.public != b.public:
        where = first_difference(a.public, b.public)
        return Phrase(N_("its result differs at {where}"), where=where)
    return None


def _entry_named(where: Phrase, i: int, e: Entry) -> Phrase:
    """'record 5 (ishida), entry 2 (move)': an entry's action type stays as it is written."""
    return Phrase(N_("{record}, entry {n} ({what})"), record=where, n=i + 1, what=_what(e))


def _what(e: Entry) -> Phrase | str:
    return Phrase(N_("forced steps")) if e.action is None else e.action.get("type", "?")


class Observer:
    """A copy that knows both sides' items as the sides bind them, retracing each entry
    without ever taking a claim on trust."""

    def __init__(self, comp: Components, books: dict[str, kn.Book], public: State):
        self.comp = comp
        self.kc = kn.knowing(comp)
        self.books = books
        self.public = public
        self.held: tuple[str, dict | None] | None = None  # None: a held entry naming none
        self.opened: set[str] = set()
        self.state: State | None = None  # the whole state after the last entry retraced
        # since the last record: the state after each entry retraced, and its events
        self.stages: list[tuple[State, list]] = []

    def retrace(self, e: Entry, where: Phrase) -> None:
        self.opened |= set(e.opened)
        self.public = kn.open_in(self.public, self.comp, e.opened)
        if e.steps < 0:
            self.held = (e.author, e.action)
            return
        if isinstance(e.action, dict) and e.action.get("type") == FORFEIT:
            # the honesty replay checked it is the forfeited game (`_same`: not None)
            self.public = cast(State, e.public)
            if self.state is not None:  # the game as it stood, ended by the forfeit
                ended = {"step": self.public["step"], "result": self.public["result"]}
                self.state = cast(State, {**self.state, **ended})
            return
        piled = kn.in_piles(self.public)  # not bound yet, whatever they become later
        reals = {h: r for b in self.books.values() for r, h in b.own.items() if h not in piled}
        state = kn.working(self.public, kn.Book("both", b"", shown=reals))
        author, action = (
            (e.author, e.action) if e.action is not None else self.held or (e.author, None)
        )
        self.held = None
        done: list = []
        if action is not None:
            state, done = handle(state, self.kc, author, kn.replace(action, reals))
        run = carry_on(state, self.kc, limit=e.steps)
        if run.steps < e.steps:
            raise Cheat(
                N_(
                    "{entry}: with both sides' secrets the engine stops after {n} of its {steps} "
                    "forced steps"
                ),
                rule=THE_END,
                entry=where,
                n=run.steps,
                steps=e.steps,
            )
        hidden = {r: h for h, r in reals.items() if h not in self.opened}
        mine = kn.conceal(run.state, self.comp, kn.Book("both", b"", shown=reals), hidden)
        diff = first_difference(mine, e.public)
        if diff is not None or e.public is None:  # (None differs from `mine` at "/")
            raise Cheat(
                N_("{entry}: with both sides' secrets the result differs at {where}"),
                rule=THE_END,
                entry=where,
                where=diff,
            )
        self.public = e.public
        self.state = run.state
        self.stages.append((run.state, done + run.events))
