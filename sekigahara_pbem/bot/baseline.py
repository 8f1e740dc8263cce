"""The random baseline: a uniformly random choice among the options its packet lists.

It is what the demo's bots always were (referee/demo.py) and what bench/bot_strength.py
measures the heuristic player against. Choices come from the engine's versioned generator
(rules/rng.py), seeded, so a game replays from its seeds.
"""

from __future__ import annotations

from ..rules import rng


class RandomPlayer:
    """One uniformly random legal option per turn file, drawn from `chooser` (a generator
    of rules/rng.py, which it advances)."""

    def __init__(self, chooser: dict):
        self.chooser = chooser

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        """One action picked at random from those offered (none if none are)."""
        if not offered:
            return []
        return [offered[rng.below(self.chooser, len(offered))]]
