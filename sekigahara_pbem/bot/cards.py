"""Card values, and the decisions that only spend cards: discards (6.2), bids (6.3) and
paying for movement (7.1).

A card is worth what it can deploy: blocks of its clan that we have on the map or in the
Recruitment Box, more for a double card when two blocks match (8.4.2) and for a swords card
when gun or cavalry blocks match (8.4.1). Loyalty Challenges (8.6) are kept for battle.
"""

from __future__ import annotations

from ..rules.vocab import LAST_WEEK, LEVELS
from .knowledge import Knowledge
from .weights import WEIGHTS

LOYALTY_VALUE = WEIGHTS["cards.LOYALTY_VALUE"]  # a Loyalty Challenge: kept for battle (8.6)
TOTAL_HAND = 7  # cards in hand from which total movement is bought (7.1)
LIMITED_HAND = 3  # ... and limited movement


def card_value(k: Knowledge, card_id: str) -> float:
    """How much a card in hand helps us in battle (kept in `k.memo`)."""
    known = k.memo.get(("card", card_id))
    if known is None:
        known = k.memo[("card", card_id)] = _card_value(k, card_id)
    return known


def _card_value(k: Knowledge, card_id: str) -> float:
    card = k.comp.cards[card_id]
    if card.kind == "loyalty":
        return LOYALTY_VALUE
    ours = [b for bs in k.blocks.values() for b in bs] + list(k.view["own"]["recruit"])
    fits = [k.comp.blocks[b] for b in ours if k.comp.blocks[b].clan == card.clan]
    value = 0.3 + 0.25 * sum(b.mon for b in fits) ** 0.5 * len(fits) ** 0.5
    if card.kind == "double" and len(fits) >= 2:
        value += 1.0
    if card.kind == "swords" and any(b.ability for b in fits):
        value += 1.0
    return value


def loyalty_spent(k: Knowledge, action: dict) -> int:
    """The Loyalty Challenges an action gives up other than in battle (8.6): paying for
    movement or Mōri blocks (7.1, 9.3), discarded (6.2) or bid (6.3), except in the last
    week's bid, which buys the game's last move (2.2)."""
    if action["type"] == "bid":
        spent = [] if k.view["week"] == LAST_WEEK else [action["card"]]
    elif action["type"] in ("level", "mori", "discard"):
        spent = action["cards"]
    else:
        return 0
    return sum(k.comp.cards[c].kind == "loyalty" for c in spent)


def score_discard(k: Knowledge, action: dict) -> float:
    """6.2: discard what we value least."""
    return -sum(card_value(k, c) for c in action["cards"])


def score_bid(k: Knowledge, action: dict) -> float:
    """6.3: the bid card is discarded whatever happens, so bid one we can spare; between
    cards of similar worth, the higher number (the first move of the week lets us strike
    or grab before the enemy reacts). In the last week the number matters most: the
    winner can take the game's last movement phase."""
    card = k.comp.cards[action["card"]]
    weight = 1 if k.view["week"] == LAST_WEEK else 100
    return -card_value(k, action["card"]) + card.bid / weight


def score_first(k: Knowledge, action: dict) -> float:
    """6.3: move first, to act before the enemy does in both turns of the week; but in
    the last week move second, so that nothing can answer our last moves (2.2)."""
    ours = action["first"] == k.side
    return float(ours != (k.view["week"] == LAST_WEEK))


def score_level(k: Knowledge, action: dict, planned: int) -> float:
    """7.1: total movement when the hand can pay for it and still fight, limited when it
    is smaller, minimal otherwise; always with the cards we value least. But never more
    than the phase's moves use: `planned` counts the stacks with a move worth making
    (and a muster), and a level whose moves go beyond them buys nothing."""
    level, cards = action["level"], action["cards"]
    hand = len(k.hand)
    want = "total" if hand >= TOTAL_HAND else "limited" if hand >= LIMITED_HAND else "minimal"
    if level == "none":
        return -5.0
    fit = 0.0 if level == want else -3.0
    cheaper = {"total": "limited", "limited": "minimal"}.get(level)
    if cheaper is not None and planned <= (LEVELS[cheaper][1] or 0):
        fit -= 4.0  # the cheaper level makes every move worth making
    return fit - sum(card_value(k, c) for c in cards) / 10
