"""The weekly cycle (rule 6) as a pipeline: what happens next once a decision is made.

week 1:       Turn Order Step (6.3)            - the Reinforcement Step is skipped
weeks 2-7:    Reinforcement Step (6.2)         - discard half the hand, draw cards and blocks
              Turn Order Step (6.3)            - sealed bids, the winner picks the first player
              Turn A, Turn B (6.4)             - first player's movement and combat phases,
                                                 then the second player's
after week 7: victory on points (2.2)
"""

from __future__ import annotations

from typing import cast

from ..bags import draw_blocks
from ..cards import check_in_hand, discard, draw
from ..components import Components
from ..control import castle_counts, resource_counts
from ..fields import get_str, get_str_list, one_of
from ..movement.movement import start_phase
from ..state_types import State
from ..victory import finish_on_points
from ..vocab import (
    BID,
    CHOOSE_FIRST,
    DISCARD,
    ISHIDA,
    LAST_WEEK,
    MOVEMENT,
    N_,
    RECRUIT,
    SIDES,
    RuleViolation,
    other,
)

WEEKLY_CARDS = 5  # 6.2
CASTLE_BONUS_CARDS = 1  # 6.2: most castles
RESOURCE_BONUS_BLOCKS = 1  # 6.2: more resource locations (both on a tie)


def discard_count(state: State, side: str) -> int:
    """6.2: half the hand, rounded down."""
    return len(state["cards"][side]["hand"]) // 2


def submit_discard(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """6.2: the sealed half-hand discard; revealed when both sides have chosen."""
    cards = get_str_list(action, "cards", required=False)
    need = discard_count(state, side)
    hand = state["cards"][side]["hand"]
    if len(cards) != need:
        raise RuleViolation(
            "6.2", N_("discard exactly {need} of your {held} cards"), need=need, held=len(hand)
        )
    check_in_hand(state, side, cards, "6.2")
    _seal(state, side, cards, events, "6.2")
    if _all_sealed(state):
        _reinforce(state, comp, events)


def submit_bid(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """6.3: a card placed face down; both are revealed together."""
    card = get_str(action, "card")
    if card not in state["cards"][side]["hand"]:
        raise RuleViolation("6.3", N_("{card} is not in your hand"), card=card)
    _seal(state, side, card, events, "6.3")
    if _all_sealed(state):
        _reveal_bids(state, comp, events)


def choose_first(state: State, comp: Components, side: str, action: dict, events: list) -> None:
    """6.3: the bid winner names the first player for both turns of the week."""
    first = one_of(get_str(action, "first"), SIDES, "first")
    state["first"] = first
    state["turn"] = "A"
    events.append({"type": "first_player", "rule": "6.3", "side": side, "first": first})
    state["step"] = MOVEMENT
    start_phase(state, first)


def awaiting(state: State) -> list[str]:
    """Sides that still owe a sealed decision this step."""
    if state["step"] == DISCARD:
        need = [s for s in SIDES if discard_count(state, s) > 0]
    else:
        need = [s for s in SIDES if state["cards"][s]["hand"]]
    return [s for s in need if s not in state["sealed"]]


def _seal(state: State, side: str, value: object, events: list, rule: str) -> None:
    if side in state["sealed"]:
        raise RuleViolation(rule, N_("you have already made this decision"))
    if side not in awaiting(state):
        raise RuleViolation(rule, N_("no such decision is asked of you now"))
    state["sealed"][side] = value
    events.append({"type": "sealed", "rule": rule, "side": side, "step": state["step"]})


def _all_sealed(state: State) -> bool:
    return not awaiting(state)


def start_week(state: State, comp: Components, events: list) -> None:
    """Weeks 2-7 open with the Reinforcement Step; sides with one card discard nothing."""
    state["step"] = DISCARD
    state["first"] = None
    state["bid_winner"] = None
    state["phase"] = None
    state["active"] = None
    events.append({"type": "week", "rule": "6.1", "week": state["week"]})
    if _all_sealed(state):
        _reinforce(state, comp, events)


def _reinforce(state: State, comp: Components, events: list) -> None:
    """6.2: reveal the discards, draw 5 cards (+1 for most castles), draw blocks."""
    for side in SIDES:
        cards = state["sealed"].get(side, [])
        if cards:
            discard(state, side, cards, events, "6.2", "reinforcement step")
    state["sealed"] = {}
    castles = castle_counts(state, comp)
    resources = resource_counts(state, comp)
    for side in SIDES:
        bonus = CASTLE_BONUS_CARDS if castles[side] > castles[other(side)] else 0
        draw(state, side, WEEKLY_CARDS + bonus, events, "6.2")
    for side in SIDES:
        n = comp.recruitment_track.get(state["week"], 0)
        if resources[side] >= resources[other(side)]:
            n += RESOURCE_BONUS_BLOCKS
        drawn = draw_blocks(state, comp, side, n)
        for b in drawn:
            state["blocks"][b] = RECRUIT
        events.append(
            {
                "type": "reinforcements",
                "rule": "6.2",
                "side": side,
                "count": len(drawn),
                "private": {side: {"blocks": drawn}},
            }
        )
    state["step"] = BID
    if _all_sealed(state):  # only when neither side holds a card to bid
        _reveal_bids(state, comp, events)


def _reveal_bids(state: State, comp: Components, events: list) -> None:
    """6.3: the higher number wins; the printed decks never share a number, and a set whose
    decks do names the side that wins a tie (`Components.bid_tie`). A side with no card to
    bid loses the bid; if neither can bid, Ishida wins it (docs/rulings.md)."""
    bids = dict(state["sealed"])
    state["sealed"] = {}
    for side, card in bids.items():
        discard(state, side, [card], events, "6.3", "bid")
    numbers = {s: comp.cards[c].bid for s, c in bids.items()}
    if len(set(numbers.values())) < len(numbers):
        winner = comp.bid_tie
    else:
        winner = max(numbers, key=lambda s: numbers[s]) if numbers else ISHIDA
    state["bid_winner"] = winner
    state["step"] = CHOOSE_FIRST
    state["active"] = winner
    events.append({"type": "bids", "rule": "6.3", "bids": bids, "winner": winner})


def _arrived_by_defence(state: State, comp: Components, active: str | None) -> dict[str, str]:
    """9.3: Mōri blocks that came to Osaka because the first player attacked it cannot move
    in the second player's phase of the same turn either."""
    phase = state["phase"]
    arrived = phase["arrived"] if phase else {}
    return {b: rule for b, rule in arrived.items() if comp.blocks[b].side != active}


def next_phase(state: State, comp: Components, events: list) -> None:
    """6.4: first player, then second, in turn A and again in turn B; then the next week."""
    if state["result"] is not None:
        return
    active, first = state["active"], cast(str, state["first"])  # named for the week (6.3)
    if active == first:
        held = _arrived_by_defence(state, comp, active)
        state["step"] = MOVEMENT
        start_phase(state, other(first))["arrived"].update(held)
    elif state["turn"] == "A":
        state["turn"] = "B"
        state["step"] = MOVEMENT
        start_phase(state, first)
    elif state["week"] >= LAST_WEEK:
        finish_on_points(state, comp, events)
    else:
        state["week"] += 1
        state["turn"] = "A"
        start_week(state, comp, events)
