"""The exchange as anyone reads it without a secret (`seki replay` of a two-party game not
revealed by both, issue 41): each record's public forms, rebuilt as its reader rebuilt
them from the form before, each checked against the hash its record carries, and the
records checked as `seki verify` checks them before it needs a secret (their signatures,
their chain, their times, the deadlines of a forfeit: side.chain). What it shows is what
each side's records showed the other: the hidden items stay under their handles.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..refusal import N_
from ..rules.components import Components
from ..rules.cycle.setup import setup
from ..rules.state_types import State
from ..rules.vocab import SIDES
from . import kinds
from . import knowledge as kn
from . import side as sides
from .exchange import AGREE, TAKEBACK, THE_END, Cheat, Record, adopt_dealt
from .files import Game


class Shown(NamedTuple):
    """A record as the game stands: its number, its author, the public form it was read
    from, and each entry's action (None: forced steps) with the public form after it
    (None: an action held for the other side's answer, which changes nothing yet)."""

    n: int
    side: str
    before: State
    entries: list[tuple[dict | None, State | None]]


class Public(NamedTuple):
    """The game, its component set, the public form it opened with, and its records."""

    game: Game
    comp: Components
    start: State
    records: list[Shown]


def read(root: Path) -> Public:
    """The records of a side's directory as the game stands (a record taken back is left
    out), from the joins' dealt handles on: Cheat, or a Refusal naming the file, at the
    first that does not check."""
    game, comp, paths, texts, joins = sides.archive(root)
    if sorted(j.record.side for j in joins) != sorted(SIDES) or any(
        j.record.seq != 0 or j.prev != game.hash for j in joins
    ):
        raise Cheat(N_("the game does not open with one join of each side"), rule=THE_END)
    start, _ = setup(kn.knowing(comp), None, game.options)
    for j in joins:
        start = adopt_dealt(start, comp, j.record.side, j.body.get("dealt") or {})
    kept = [start, start]  # the form both sides hold after each record: the joins, then one each
    shown: list[Shown] = []

    def take(record: Record) -> None:
        kind = kinds.of(record).name
        if kind == AGREE:  # both go back to before the record asked back (`taken`)
            taken = len(kept) - 2
            kept.append(kept[taken - 1])
            if shown and shown[-1].n == taken:
                shown.pop()
            return
        if kind == TAKEBACK:
            kept.append(kept[-1])
            return
        before = kept[-1]
        forms = [e.public for e in record.entries if e.public is not None]
        kept.append(forms[-1] if forms else before)
        entries = [(e.action, e.public) for e in record.entries]
        shown.append(Shown(len(kept) - 1, record.side, before, entries))

    sides.chain(game, paths, texts, joins, {}, lambda author: kept[-1], take)
    return Public(game, comp, start, shown)
