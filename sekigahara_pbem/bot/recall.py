"""The enemy's cards as a person across the table remembers them (issue 39, "What it
knows of the enemy").

Every card discarded or played goes face up to its side's discard pile (3.3), which no
one may examine but anyone may have watched grow since it was last shuffled into a new
draw pile; and a card shown to refute a Loyalty Challenge goes back to the hand that
showed it (8.6.1). A view counts the enemy's piles; `Recall` names what the events it
was shown tell of them, so the heuristic knows when the enemy has no Loyalty Challenge
left to play (`Knowledge.enemy_may_challenge`). The search's worlds do not use it: dealt
so, hard won 11 of 28 games against hard dealing them blind (docs/bot.md).
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules.components import Components
from ..rules.vocab import other


class Piles(NamedTuple):
    """The enemy's cards known to be in its discard pile, and in its hand."""

    discard: frozenset[str]
    hand: frozenset[str]


class Recall:
    """One side's memory of the enemy's discard pile and of the cards it has shown."""

    def __init__(self, comp: Components, side: str):
        self.side, self.enemy = side, other(side)
        self.deck = frozenset(comp.deck(self.enemy))
        self.discarded: set[str] = set()  # since the enemy's draw pile was last rebuilt
        self.shown: set[str] = set()  # shown to refute a challenge, not played since

    def observe(self, events: list) -> None:
        """Take in events as this side saw them; a field of a shape the engine never
        writes is passed over (a packet is another's file: the counts of the next view
        then disagree, and `piles` says nothing)."""
        for e in events:
            if not isinstance(e, dict):
                continue
            kind, side = e.get("type"), e.get("side")
            if kind == "discard" and side == self.enemy:
                cards = self._cards(e.get("cards"))
                self.discarded |= cards
                self.shown -= cards
            elif kind == "reshuffle" and side == self.enemy:
                self.discarded = set()  # the discards are its new draw pile (3.3)
            elif kind == "challenge" and side == self.side and e.get("result") == "loyal":
                self.shown |= self._cards([e.get("shown")])

    def _cards(self, names: object) -> set[str]:
        return {c for c in names if c in self.deck} if isinstance(names, list) else set()

    def piles(self, v: dict) -> Piles | None:
        """What is remembered of the enemy's piles as view `v` shows them, or None where
        the memory disagrees with the view's counts (events missed: a player shown a game
        from its middle judges the enemy's cards by the counts alone). Cards played in
        the combat under way are on the table, in neither pile."""
        fight = (v.get("combat") or {}).get("fight") or {}
        on_table = set(fight.get("played", {}).get(self.enemy, []))
        hand = frozenset(self.shown - on_table - self.discarded)
        if len(self.discarded) != v["discards"][self.enemy] or len(hand) > v["hands"][self.enemy]:
            return None
        return Piles(frozenset(self.discarded), hand)
