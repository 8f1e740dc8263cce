"""Drawing and discarding cards (3.3): draws from the top; an empty pile is rebuilt by
shuffling the discards; every discard and play is public. A two-party game's pile holds
unbound slots (rules/slots.py), and the rebuilt pile new ones."""

from __future__ import annotations

from . import rng, slots
from .state_types import State
from .vocab import N_, RuleViolation


def draw(state: State, side: str, n: int, events: list, rule: str) -> list[str]:
    """Draw up to n cards; fewer only if draw pile and discards are both empty."""
    pile = state["cards"][side]
    drawn: list[str] = []
    for _ in range(n):
        if not pile["deck"]:
            if not pile["discard"]:
                break
            if slots.unbound(state):
                pile["deck"] = slots.mint(state, side, len(pile["discard"]))
            else:
                pile["deck"] = sorted(pile["discard"])
                rng.shuffle(state["rng"], pile["deck"])
            pile["discard"] = []
            events.append(
                {"type": "reshuffle", "rule": "3.3", "side": side, "cards": len(pile["deck"])}
            )
        drawn.append(pile["deck"].pop())
    pile["hand"].extend(drawn)
    if n:
        events.append(
            {
                "type": "draw",
                "rule": rule,
                "side": side,
                "count": len(drawn),
                "private": {side: {"cards": drawn}},
            }
        )
    return drawn


def discard(state: State, side: str, cards: list[str], events: list, rule: str, why: str) -> None:
    """Move cards from the hand to the discard pile, face up (3.3)."""
    check_in_hand(state, side, cards, rule)
    if not cards:
        return
    hand = state["cards"][side]["hand"]
    for c in cards:
        hand.remove(c)
    state["cards"][side]["discard"].extend(cards)
    events.append({"type": "discard", "rule": rule, "side": side, "cards": list(cards), "why": why})


def check_in_hand(state: State, side: str, cards: list[str], rule: str) -> None:
    """Refuse cards named twice or not held: every play and discard comes from the hand."""
    hand = state["cards"][side]["hand"]
    if len(set(cards)) != len(cards):
        raise RuleViolation(rule, N_("the same card is named twice"))
    missing = [c for c in cards if c not in hand]
    if missing:
        raise RuleViolation(rule, N_("not in your hand: {cards}"), cards=", ".join(missing))
