"""The random baseline: a uniformly random choice among the options its packet lists.

It is what the demo's bots always were (pbem/demo.py) and what bench/bot_strength.py
measures the heuristic player against. Choices come from the engine's versioned generator
(rules/rng.py), seeded, so a game replays from its seeds.
"""

from __future__ import annotations

import hashlib

from ..rules import rng


class RandomPlayer:
    """One uniformly random legal option per turn file."""

    def __init__(self, seed: str):
        self.chooser = rng.new(hashlib.sha256(seed.encode()).hexdigest())

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        """One action picked at random from those offered (none if none are)."""
        if not offered:
            return []
        return [offered[rng.below(self.chooser, len(offered))]]
