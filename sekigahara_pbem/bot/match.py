"""Two players on the engine directly, each deciding from its own view as a packet would
give it (used by bench/bot_strength.py and the tests; `seki demo` plays through files).

Every action a player returns is applied to the real state; one the engine refuses is
counted and the game goes on with the player's next answer, so a test can assert there
were none.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules.components import Components
from ..rules.cycle.setup import setup
from ..rules.state_types import State
from ..rules.views import redact_event, view
from . import Player
from .chain import OnAction, play_on

MAX_TURN_FILES = 5000


@dataclass
class Game:
    state: State
    turn_files: int = 0
    actions: int = 0
    refused: list[str] = field(default_factory=list)
    seconds: dict[str, list[float]] = field(default_factory=dict)  # decision times per side
    wall: dict[str, list[float]] = field(default_factory=dict)  # the same on the wall's clock


def play(
    comp: Components,
    seed_hex: str,
    players: dict[str, Player],
    on_decision: Callable[[State, str], None] | None = None,
    on_action: OnAction | None = None,
) -> Game:
    """Play one game from setup; each turn file is the asked side's `actions`, timed on
    the process clock and the wall's (a search in two processes spends both cores).
    `on_decision(state, side)` is called before each (for tests), and `on_action` after
    each action applied (bench/blunders.py counts blunders by it). A player that
    observes events (`Player.observe`) is shown each as its side sees it."""
    state, events = setup(comp, seed_hex)
    watch = _shown(players)
    watch(events)
    seconds: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}

    def decide(state: State, side: str, offered: list[dict]) -> list[dict]:
        if on_decision is not None:
            on_decision(state, side)
        start, waited = time.process_time(), time.monotonic()
        chosen = players[side].actions(view(state, comp, side), offered)
        seconds.setdefault(side, []).append(time.process_time() - start)
        wall.setdefault(side, []).append(time.monotonic() - waited)
        return chosen

    played = play_on(comp, state, decide, MAX_TURN_FILES, on_action=on_action, watch=watch)
    return Game(played.state, played.turn_files, played.actions, played.refused, seconds, wall)


def _shown(players: dict[str, Player]) -> Callable[[list[dict]], None]:
    """What shows each observing player the events of the game, redacted for its side."""
    watching = {s: p.observe for s, p in players.items() if hasattr(p, "observe")}

    def watch(events: list[dict]) -> None:
        for side, observe in watching.items():
            observe([redact_event(e, side) for e in events])

    return watch
