"""Two sides exchanging records in memory until the game ends (tests, benchmarks, and
the bots' demo before records travel as files)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from ..rules.components import Components
from ..rules.options import options
from ..rules.state_types import State
from ..rules.views import view
from ..rules.vocab import ISHIDA, SIDES, other
from . import knowledge as kn
from .exchange import Chooser, Party, Record, start

MAX_RECORDS = 2000
T = TypeVar("T")  # what the sides send each other: a Record in memory, a file's text


@dataclass
class Match:
    parties: dict[str, Party]
    log: list[Record] = field(default_factory=list)

    @property
    def result(self) -> dict | None:
        return self.parties[ISHIDA].result


def play(
    comp: Components,
    secrets: dict[str, bytes],
    choosers: dict[str, Chooser],
    deliver: Callable[[Record], Record] = lambda r: r,
) -> Match:
    """Both joins, then records in turn from Ishida's, each read by the other side as
    `deliver` hands it over (a test may alter it on the way)."""
    books = {s: kn.Book(s, secrets[s]) for s in SIDES}
    public = start(comp, books)
    match = Match({s: Party(s, comp, books[s], public) for s in SIDES})

    def send(reader: str, record: Record) -> None:
        match.log.append(deliver(record))
        match.parties[reader].read(match.log[-1])

    take_turns(
        lambda s: match.parties[s].join(),
        lambda s: match.parties[s].write(choosers[s]),
        send,
        lambda s: match.result is not None,
    )
    return match


def take_turns(
    join: Callable[[str], T],
    write: Callable[[str], T],
    send: Callable[[str, T], None],
    over: Callable[[str], bool],
    limit: int = MAX_RECORDS,
) -> None:
    """The two sides' exchange, in memory or through files: both join (`join(side)`),
    each join sent to the other side (`send(reader, join)`), then from Ishida's on, until
    `over(side to write)`, each side in turn writes its next record and sends it to the
    other."""
    joins = {s: join(s) for s in SIDES}
    for s in SIDES:
        send(other(s), joins[s])
    turn = ISHIDA
    for _ in range(limit):
        if over(turn):
            break
        send(other(turn), write(turn))
        turn = other(turn)


def player_chooser(player) -> Chooser:
    """A bot of bot/ deciding from its side's view of the working copy, as from a packet."""

    def choose(state: State, kc: Components, side: str) -> dict:
        return player.actions(view(state, kc, side), options(state, kc, side))[0]

    return choose
