"""The frozen baseline (issue 39): the search player of seki 0.2 as it was on 29 November
2026 (commit 350a3be), its heuristic and their hand-set weights, copied whole and never
changed again. Every change to a computer player is measured against it at equal
thinking time (bench/bot_strength.py --against baseline), as chess engines measure each
change against a fixed opponent, so a gain is a gain over the same player every time.

Only the imports differ from sekigahara_pbem/bot/ (the rules engine by its full name):
the engine is the rules, and is shared. If a change to the engine's interface breaks
this copy, mend the call, never the play.
"""

from __future__ import annotations

from sekigahara_pbem.rules.components import Components

from .heuristic import HeuristicPlayer
from .search import SearchPlayer

__all__ = ["HeuristicPlayer", "SearchPlayer", "make_baseline"]


def make_baseline(comp: Components, game_options: dict, seed: str, budget: float) -> SearchPlayer:
    """The baseline player: the frozen search player thinking `budget` seconds a decision."""
    return SearchPlayer(comp, game_options, seed, budget=budget)
