"""Computer players: pure decision logic, no I/O (docs/bot.md).

A player answers a packet: `actions(view, offered)` takes its side's view and the legal
options listed for it and returns the actions of one turn file. A heuristic or search
player may also be shown the events its side saw (`observe(events)`, in order, each
redacted for its side), from which it believes where the enemy's hidden blocks are
(belief.py). It never sees more than its packets showed, so it plays under the same
constraints as a person.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from ..refusal import N_, Refusal
from ..rules import rng
from ..rules.components import Components
from .baseline import RandomPlayer
from .heuristic import HeuristicPlayer
from .search import SearchPlayer

KINDS = ("heuristic", "search", "random", "simple")
BUDGET = 1.0  # the search player's default seconds per decision
# the hard level's, on the wall's clock in two processes: a median turn file under 1 s,
# 4 s at most (docs/bot.md, "Both cores")
HARD_BUDGET = 0.7
# The levels a player chooses (seki solo --level): a kind of player and its budget.
LEVELS = {
    "easy": ("simple", BUDGET),  # the heuristic without partial stack moves
    "normal": ("heuristic", BUDGET),
    "hard": ("search", HARD_BUDGET),
}


class Player(Protocol):
    def actions(self, v: dict, offered: list[dict]) -> list[dict]: ...


def show_then_ask(player: Player, shown: list, v: dict, offered: list[dict]) -> list[dict]:
    """A fresh player's answer to a packet (one turn file), shown first the events its
    side saw up to it if it keeps a belief over the enemy's blocks (belief.py)."""
    observe = getattr(player, "observe", None)
    if observe is not None:
        observe(shown)
    return player.actions(v, offered)


def make_player(
    kind: str,
    comp: Components,
    game_options: dict,
    seed: str,
    plans: bool = False,
    budget: float = BUDGET,
    movement: bool = True,
    workers: int = 2,
) -> Player:
    """A player of the named kind (KINDS); a heuristic player with `plans` files battle
    plans (plan.py); a search player thinks `budget` seconds per decision, searches
    movement decisions if `movement`, in `workers` processes (search.py); a simple one
    is the heuristic without partial stack moves (the easy level). A kind, plans or
    budget that does not fit is refused (the options a person typed)."""
    if kind in ("heuristic", "simple"):
        return HeuristicPlayer(comp, game_options, seed, plans, partial=kind == "heuristic")
    if kind == "search":
        if plans:
            raise Refusal(N_("the search bot files no battle plan: it decides every combat"))
        if not budget > 0:
            raise Refusal(N_("the search bot needs a positive budget, not {budget}"), budget=budget)
        return SearchPlayer(
            comp, game_options, seed, budget=budget, movement=movement, workers=workers
        )
    if kind == "random":
        return RandomPlayer(rng.new(hashlib.sha256(seed.encode()).hexdigest()))
    raise Refusal(
        N_("unknown bot {kind}: expected one of {kinds}"), kind=f"'{kind}'", kinds=", ".join(KINDS)
    )
