"""The enemy's discard pile as a person across the table remembers it (issue 39, "What it
knows of the enemy").

Every card discarded or played goes face up to its side's discard pile (3.3), which no
one may examine but anyone may have watched grow since it was last shuffled into a new
draw pile. A view counts the pile; `Recall` names it from the events it was shown, so the
heuristic knows when the enemy has no Loyalty Challenge left to play
(`Knowledge.enemy_may_challenge`). The search's worlds do not use it: dealt so, hard won
11 of 28 games against hard dealing them blind (docs/bot.md).
"""

from __future__ import annotations

from ..rules.components import Components
from ..rules.vocab import other


class Recall:
    """One side's memory of the enemy's discard pile."""

    def __init__(self, comp: Components, side: str):
        self.enemy = other(side)
        self.deck = frozenset(comp.deck(self.enemy))
        self.discarded: set[str] = set()  # since the enemy's draw pile was last rebuilt

    def observe(self, events: list) -> None:
        """Take in events as this side saw them; a field of a shape the engine never
        writes is passed over (a packet is another's file: the count of the next view
        then disagrees, and `discard` says nothing)."""
        for e in events:
            if not isinstance(e, dict) or e.get("side") != self.enemy:
                continue
            if e.get("type") == "discard":
                cards = e.get("cards")
                if isinstance(cards, list):
                    self.discarded |= {c for c in cards if isinstance(c, str) and c in self.deck}
            elif e.get("type") == "reshuffle":
                self.discarded = set()  # the discards are its new draw pile (3.3)

    def discard(self, v: dict) -> frozenset[str] | None:
        """The enemy's discard pile as view `v` counts it, or None where the memory
        disagrees with the count (events missed: a player shown a game from its middle
        judges the enemy's cards by the counts alone)."""
        if len(self.discarded) != v["discards"][self.enemy]:
            return None
        return frozenset(self.discarded)
