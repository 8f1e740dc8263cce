"""The kinds of two-party record (docs/two-party.md, "Records"), one table: a record of
the game's actions, a takeback asked or agreed, a resignation, a claim of forfeit.

A record's kind is its only entry's action type; any other record is one of the game's
actions (`PLAY`). Each kind says how its author's engine writes the record again
(`remake`): a side catching up with a record of its own it has not taken in (side.py)
and the audit checking a revealed side's records (audit.py) call the same function, so
the two cannot tell kinds apart differently. `aside`: a takeback asked or agreed, which
leaves the game's sequence and randomness alone; `ends`: the game is over once it is
written (`seki status`, without a key)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..refusal import N_, Phrase
from ..rules.components import Components
from ..rules.state_types import State
from . import exchange as ex
from . import knowledge as kn
from .exchange import Cheat, Chooser, Party, Record


@dataclass(frozen=True)
class Kind:
    """One kind of record: the type its only entry's action names (None: a record of the
    game's actions), and the record its author's party writes again from it."""

    name: str | None
    remake: Callable[[Party, Record], Record]
    ends: bool = False

    @property
    def aside(self) -> bool:
        return self.name in ex.ASIDES


def recorded(record: Record, party: Party) -> Chooser:
    """A chooser that makes the recorded choices again, in order."""
    actions = [e.action for e in record.entries if e.action is not None]

    def choose(state: State, comp: Components, side: str) -> dict:
        if not actions:
            raise Cheat(
                N_("{record} stops before its engine would"), rule=ex.THE_END, record=named(record)
            )
        return kn.replace(actions.pop(0), party.book.reals())

    return choose


def named(record: Record) -> Phrase:
    """'record 5 (ishida)', in words where it is shown."""
    return Phrase(N_("record {seq} ({side})"), seq=record.seq, side=record.side)


def _forfeit(party: Party, record: Record) -> Record:
    return party.forfeit((ex.only_action(record) or {}).get("record"))


PLAY = Kind(None, lambda party, record: party.write(recorded(record, party)))
KINDS = (
    PLAY,
    Kind(ex.TAKEBACK, lambda party, record: party.takeback(ex.TAKEBACK)),
    Kind(ex.AGREE, lambda party, record: party.takeback(ex.AGREE)),
    Kind(ex.RESIGN, lambda party, record: party.resign(), ends=True),
    Kind(ex.FORFEIT, _forfeit, ends=True),
)


def of_type(action: object) -> Kind:
    """The kind of a record whose only entry's action is `action` (None: it has not one
    entry, or its action is no table of fields)."""
    name = action.get("type") if isinstance(action, dict) else None
    return next((k for k in KINDS if k.name == name), PLAY)


def of(record: Record) -> Kind:
    """A record's kind."""
    return of_type(ex.only_action(record))
