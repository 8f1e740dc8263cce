"""The passive choice for a decision, applied when a side misses its deadline under the
`pass` policy (docs/rulings.md, "Missed deadlines"): each kind of decision names its own
(rules/decisions/) — discard and bid the lowest cards, no movement, no combat cards, no
challenges; where the rules leave no passive choice (a compulsory declaration, losses, a
retreat) the first legal option in the engine's order.
"""

from __future__ import annotations

from .components import Components
from .decisions import current
from .options import options
from .state_types import State


def passive_action(state: State, comp: Components, side: str) -> dict | None:
    """The passive answer to `side`'s decision now (None if nothing is asked of it)."""
    legal = options(state, comp, side)
    kind = current(state)
    if not legal or kind is None:  # (no options once the game is over)
        return None
    return kind.passive(state, comp, side, legal)
