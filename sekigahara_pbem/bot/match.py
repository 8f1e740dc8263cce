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
from ..rules.engine import apply, pending
from ..rules.options import options
from ..rules.views import view
from ..rules.vocab import Malformed, RuleViolation
from . import Player

MAX_TURN_FILES = 5000


@dataclass
class Game:
    state: dict
    turn_files: int = 0
    actions: int = 0
    refused: list[str] = field(default_factory=list)
    seconds: dict[str, list[float]] = field(default_factory=dict)  # decision times per side


def play(
    comp: Components,
    seed_hex: str,
    players: dict[str, Player],
    on_decision: Callable[[dict, str], None] | None = None,
) -> Game:
    """Play one game from setup; each turn file is the asked side's `actions`, timed on
    the process clock. `on_decision(state, side)` is called before each (for tests)."""
    state, _ = setup(comp, seed_hex)
    game = Game(state)
    for _ in range(MAX_TURN_FILES):
        waiting = pending(game.state)
        if not waiting:
            break
        side = waiting[0]["side"]
        if on_decision is not None:
            on_decision(game.state, side)
        offered = options(game.state, comp, side)
        start = time.process_time()
        chosen = players[side].actions(view(game.state, comp, side), offered)
        game.seconds.setdefault(side, []).append(time.process_time() - start)
        game.turn_files += 1
        for action in chosen or offered[:1]:
            if not any(d["side"] == side for d in pending(game.state)):
                game.refused.append(f"{side}: {action} sent after its decision had passed")
                break
            try:
                game.state, _ = apply(game.state, comp, side, action)
            except (RuleViolation, Malformed) as exc:
                game.refused.append(f"{side}: {action}: {exc}")
                game.state, _ = apply(game.state, comp, side, offered[0])
                break
            game.actions += 1
    return game
