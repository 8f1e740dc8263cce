"""The passive choice for a decision, applied when a side misses its deadline under the
`pass` policy (docs/rulings.md, "Missed deadlines"): discard and bid the lowest cards, no
movement, no combat cards, no challenges; where the rules leave no passive choice (a
compulsory declaration, losses, a retreat) the first legal option in the engine's order.
"""

from __future__ import annotations

from .components import Components
from .options import options
from .vocab import BID, CHOOSE_FIRST, COMBAT, DISCARD, MOVEMENT, other

# In the combat step, the passive answers in order of preference.
_PASSIVE = ({"type": "finish"}, {"type": "decline"}, {"type": "castle", "inside": True})


def passive_action(state: dict, comp: Components, side: str) -> dict | None:
    """The passive answer to `side`'s decision now (None if nothing is asked of it)."""
    legal = options(state, comp, side)
    if not legal:
        return None
    step = state["step"]
    hand = state["cards"][side]["hand"]

    def bid_value(card: str) -> int:
        return comp.cards[card].bid

    if step == DISCARD:
        n = len(legal[0]["cards"])
        return {"type": "discard", "cards": sorted(sorted(hand, key=bid_value)[:n])}
    if step == BID:
        return {"type": "bid", "card": min(hand, key=bid_value)}
    if step == CHOOSE_FIRST:
        return {"type": "choose_first", "first": other(side)}
    if step == MOVEMENT:
        if state["phase"]["level"] is None:
            return {"type": "level", "level": "none", "cards": []}
        return {"type": "end_movement"}
    if step == COMBAT:
        for action in _PASSIVE:
            if action in legal:
                return dict(action)
    return legal[0]
