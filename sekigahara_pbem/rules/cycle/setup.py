"""Initial setup (rule 5), in the rulebook's order.

Random events consume the generator in this fixed order, which docs/random.md records so
an archive can be re-derived: Ishida deck shuffle, Tokugawa deck shuffle, the random
placements in board manifest order (5.2.2), then Ishida's and Tokugawa's four
reinforcement draws (5.2.3).
"""

from __future__ import annotations

from .. import rng, slots
from ..bags import bag, draw_from
from ..cards import draw
from ..components import Components
from ..state import game_options, new_state
from ..state_types import State
from ..vocab import BAG, BID, MORI_BOX, RECRUIT, SIDES, STARTING_HAND


def setup(
    comp: Components, seed_hex: str | None, options: dict | None = None
) -> tuple[State, list]:
    """Rule 5: a new game ready for week 1's Turn Order Step (6.2 is skipped in week 1).
    Without a seed, a two-party game: bags and piles of unbound slots (rules/slots.py).
    An unknown option, or a value it cannot take, is Malformed (`game_options`)."""
    opts = game_options(options)
    events: list = []
    if seed_hex is None:
        state = new_state(comp, opts, {}, BID)
        state["slots"] = dict.fromkeys(SIDES, 0)
    else:
        state = new_state(comp, opts, rng.new(seed_hex), BID)  # 5.1: week 1
    for side in SIDES:  # 5.1: shuffle both decks
        deck = sorted(comp.deck(side))
        if seed_hex is None:
            deck = slots.mint(state, side, len(deck))
        else:
            rng.shuffle(state["rng"], deck)
        state["cards"][side] = {"deck": deck, "hand": [], "discard": []}
    for side in SIDES:  # 5.1: five cards each
        draw(state, side, STARTING_HAND, events, "5.1")
    _place_fixed(state, comp)  # 5.2.1
    if seed_hex is None:
        _bag_slots(state, comp)
    bags = {side: bag(state, comp, side) for side in SIDES}  # each drawn from below
    for loc in comp.locations.values():  # 5.2.2, in manifest order
        if loc.random_blocks:
            side, count = loc.random_blocks
            drawn = draw_from(state, bags[side], count)
            for b in drawn:
                state["blocks"][b] = loc.id
            events.append(
                {
                    "type": "setup_random",
                    "rule": "5.2.2",
                    "side": side,
                    "location": loc.id,
                    "count": len(drawn),
                    "private": {side: {"blocks": drawn}},
                }
            )
    for side in SIDES:  # 5.2.3
        drawn = draw_from(state, bags[side], comp.first_reinforcements[side])  # the +4
        for b in drawn:
            state["blocks"][b] = RECRUIT
        events.append(
            {
                "type": "reinforcements",
                "rule": "5.2.3",
                "side": side,
                "count": len(drawn),
                "private": {side: {"blocks": drawn}},
            }
        )
    if opts["capitals_start_controlled"]:  # 4.5
        for loc in comp.locations.values():
            if loc.capital:
                state["control"][loc.id] = loc.capital
    return state, events


def _place_fixed(state: State, comp: Components) -> None:
    """5.2.1: blocks with a setup symbol go to the location (or box) with that symbol;
    the rest stay in their side's bag (5.2.2)."""
    by_symbol = {loc.setup_symbol: loc.id for loc in comp.locations.values() if loc.setup_symbol}
    if comp.mori_box_symbol:
        by_symbol[comp.mori_box_symbol] = MORI_BOX
    for b in comp.blocks.values():
        if b.setup:
            state["blocks"][b.id] = by_symbol[b.setup]


def _bag_slots(state: State, comp: Components) -> None:
    """A two-party game's bags hold slots in place of the blocks left in them."""
    bagged = {
        s: [b for b, w in state["blocks"].items() if w == BAG and comp.blocks[b].side == s]
        for s in SIDES
    }
    for side, blocks in bagged.items():
        for b in blocks:
            del state["blocks"][b]
        state["blocks"].update(dict.fromkeys(slots.mint(state, side, len(blocks)), BAG))
