"""Unbound slots: how a two-party game (docs/two-party.md) draws with no one knowing what
is drawn. Its draw piles and bags hold slots, named in the public state; a draw takes
slots in a fixed order, and only the owner learns, afterwards and from randomness neither
side could steer, which card or block each slot is. A referee's game has no slots: its
piles and bags hold the real cards and blocks, drawn with the game's generator.
"""

from __future__ import annotations

from .state_types import State

SLOT = "?"


def unbound(state: State) -> bool:
    """Whether the game draws slots (a two-party game)."""
    return "slots" in state


def is_stand_in(name: str) -> bool:
    """A name that stands for an unknown item: a slot, or a two-party copy's handle."""
    return name.startswith(SLOT)


def mint(state: State, side: str, n: int) -> list[str]:
    """n new slots of `side`, named in the order they are made."""
    first = state["slots"][side]
    state["slots"][side] = first + n
    return [f"{SLOT}{side}-s{first + i}" for i in range(n)]
