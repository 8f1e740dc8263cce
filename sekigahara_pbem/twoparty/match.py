"""Two sides exchanging records in memory until the game ends (tests, benchmarks, and
the bots' demo before records travel as files)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules.components import Components
from ..rules.options import options
from ..rules.views import view
from ..rules.vocab import ISHIDA, SIDES, other
from . import knowledge as kn
from .exchange import Chooser, Party, Record, start

MAX_RECORDS = 2000


@dataclass
class Match:
    parties: dict[str, Party]
    log: list[Record] = field(default_factory=list)

    @property
    def result(self) -> dict | None:
        return self.parties[ISHIDA].public["result"]


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
    joins = {s: match.parties[s].join() for s in SIDES}
    for s in SIDES:
        match.log.append(deliver(joins[s]))
    for s in SIDES:
        match.parties[other(s)].read(match.log[-2 if s == ISHIDA else -1])
    turn = ISHIDA
    for _ in range(MAX_RECORDS):
        if match.result is not None:
            break
        match.log.append(deliver(match.parties[turn].write(choosers[turn])))
        match.parties[other(turn)].read(match.log[-1])
        turn = other(turn)
    return match


def player_chooser(player) -> Chooser:
    """A bot of bot/ deciding from its side's view of the working copy, as from a packet."""

    def choose(state: dict, kc: Components, side: str) -> dict:
        return player.actions(view(state, kc, side), options(state, kc, side))[0]

    return choose
