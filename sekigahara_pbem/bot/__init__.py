"""Computer players: pure decision logic, no I/O (docs/bot.md).

A player answers a packet: `actions(view, offered)` takes its side's view and the legal
options listed for it and returns the actions of one turn file. It never sees more than
that, so it plays under the same constraints as a person.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from ..rules import rng
from ..rules.components import Components
from .baseline import RandomPlayer
from .heuristic import HeuristicPlayer

KINDS = ("heuristic", "random")


class Player(Protocol):
    def actions(self, v: dict, offered: list[dict]) -> list[dict]: ...


def make_player(
    kind: str, comp: Components, game_options: dict, seed: str, plans: bool = False
) -> Player:
    """A player of the named kind (KINDS); a heuristic player with `plans` files battle
    plans (plan.py)."""
    if kind == "heuristic":
        return HeuristicPlayer(comp, game_options, seed, plans)
    if kind == "random":
        return RandomPlayer(rng.new(hashlib.sha256(seed.encode()).hexdigest()))
    raise ValueError(f"unknown bot '{kind}': expected one of {', '.join(KINDS)}")
