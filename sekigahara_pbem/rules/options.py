"""Legal choices for the decision a side faces, as concrete actions: each kind of decision
lists its own (rules/decisions/). Every listed action is legal; the property tests apply
each one. The packet's list is not every legal action where they are too many to list
(moves, large loss selections); the guided dialogue (`Kind.dialogue`) reaches them all.
"""

from __future__ import annotations

from collections.abc import Sequence

from .components import Components
from .decisions import current
from .state_types import State


def options(state: State, comp: Components, side: str) -> list[dict]:
    """Concrete legal actions for `side` now (empty if nothing is asked of it)."""
    return list(listing(state, comp, side))


def listing(state: State, comp: Components, side: str) -> Sequence[dict]:
    """The same options, each made into its action only when read (`kind.Listing`): for
    a playout, which counts them and draws one."""
    kind = current(state)  # what `engine.pending` asks, with the kind kept
    if kind is None or not any(d["side"] == side for d in kind.deciders(state)):
        return []
    return kind.options(state, comp, side)
