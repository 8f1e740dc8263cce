"""Random legal players: the fuzzer behind the property tests (and, later, `seki simulate`).

Choices come from a second generator seeded from the game seed, so a failing game can be
replayed from its seed alone.
"""

from __future__ import annotations

from collections.abc import Callable

from .rules import rng
from .rules.components import Components
from .rules.engine import apply, pending
from .rules.options import options
from .rules.setup import setup

StepHook = Callable[[dict, dict, str, dict, list], None]


def playout(
    comp: Components, seed: int, max_actions: int = 10_000, on_step: StepHook | None = None
) -> dict:
    """Play one random legal game from setup; call on_step(before, after, side, action,
    events) after every action. Returns the last state."""
    state, _ = setup(comp, f"{seed:032x}")
    chooser = rng.new(f"{seed + 10**6:032x}")
    for _ in range(max_actions):
        decisions = pending(state)
        if not decisions:
            break
        side = decisions[rng.below(chooser, len(decisions))]["side"]
        acts = options(state, comp, side)
        action = acts[rng.below(chooser, len(acts))]
        new, events = apply(state, comp, side, action)
        if on_step is not None:
            on_step(state, new, side, action, events)
        state = new
    return state
