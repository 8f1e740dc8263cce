"""The draw bags (5.2.2, 6.2): blocks drawn at random, unseen by the opponent. A two-party
game's bag holds unbound slots (rules/slots.py): any n of them are as good as others."""

from __future__ import annotations

from . import rng, slots
from .components import Components
from .state_types import State
from .vocab import BAG


def bag(state: State, comp: Components, side: str) -> list[str]:
    """The bag's contents in canonical (sorted) order; a bag has no order of its own."""
    return sorted(b for b, w in state["blocks"].items() if w == BAG and comp.blocks[b].side == side)


def draw_blocks(state: State, comp: Components, side: str, n: int) -> list[str]:
    """Draw up to n blocks at random; an empty bag gives fewer.
    The caller must place them before drawing again."""
    return draw_from(state, bag(state, comp, side), n)


def draw_from(state: State, contents: list[str], n: int) -> list[str]:
    """Draw up to n blocks at random from `contents`, a side's `bag`, and take them out of
    it, so that it stays what `bag` gives once they are placed: for setup, which draws
    from each bag again and again (5.2.2, 5.2.3) and would otherwise read the bag from
    every block each time."""
    if slots.unbound(state):
        drawn = contents[:n]
        del contents[:n]
        return drawn
    drawn = []
    for _ in range(min(n, len(contents))):
        drawn.append(contents.pop(rng.below(state["rng"], len(contents))))
    return drawn
