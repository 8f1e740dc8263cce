"""The fast paths of random play (issue 18) against the plain forms they replace: a
playout changing one state in place (`engine.play`) plays the same game as one copying
it (`engine.apply`); the movement listing (`kind.Listing`) holds exactly the options,
in order; the moves it lists (walking the path trie) are exactly those a plain search of
the map finds; one survey of the map says what the state's own queries say."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sekigahara_pbem.rules.control import castle_controller
from sekigahara_pbem.rules.decisions import movement as listing_moves
from sekigahara_pbem.rules.engine import apply, play
from sekigahara_pbem.rules.movement.movement import capacity, leadership, road_key
from sekigahara_pbem.rules.options import listing, options
from sekigahara_pbem.rules.state import blocks_at, canonical, clone, presence, sides_at
from sekigahara_pbem.rules.vocab import MOVEMENT, RECRUIT, SIDES, other
from sekigahara_pbem.testing.random_player import playout


def _movement_states(comp, seed: int, limit: int = 400) -> list[tuple[dict, str]]:
    """Copies of the states of a random game at which a side lists its movement."""
    found: list[tuple[dict, str]] = []

    def keep(before, after, side, action, events):
        if before["step"] == MOVEMENT and before["phase"]["level"] is not None:
            found.append((before, side))

    playout(comp, seed, max_actions=limit, on_step=keep, plans=False)
    return found


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), plans=st.booleans())
def test_a_playout_in_place_plays_the_same_game_as_one_that_copies(comp, seed, plans):
    copied = playout(comp, seed, on_step=lambda *_: None, plans=plans)
    in_place = playout(comp, seed, plans=plans)
    assert canonical(in_place) == canonical(copied)


def test_play_changes_the_state_as_apply_returns_it_and_apply_keeps_its_own(comp):
    for state, side in _movement_states(comp, 5)[:40]:
        action = options(state, comp, side)[-1]
        before = canonical(state)
        new, events = apply(state, comp, side, action)
        assert canonical(state) == before
        mine = clone(state)
        assert play(mine, comp, side, action, listed=True) == events
        assert canonical(mine) == canonical(new)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_7_the_movement_listing_holds_exactly_the_options_in_order(comp, seed):
    for state, side in _movement_states(comp, seed):
        listed = listing(state, comp, side)
        every = options(state, comp, side)
        assert len(listed) == len(every)
        assert list(listed) == every
        assert [listed[i] for i in range(len(listed))] == every
        assert listed[-1] == every[-1] and listed[-len(every)] == every[0]
        assert listed[1:4] == every[1:4] and listed[::7] == every[::7]
        for beyond in (len(every), -len(every) - 1):
            with pytest.raises(IndexError):
                listed[beyond]
        # each read is a new action: changing one leaves the listing as it was
        if every and every[-1]["type"] == "move":
            listed[-1]["groups"][0]["path"].append("nowhere")
            assert listed[-1] == every[-1]


def _searched_paths(state, comp, origin, stops, lead, march):
    """7.3.1-7.3.3 as a plain search of the map: every simple path from `origin` over
    roads not used this phase, as far as one block could travel, stopping at enemies."""
    used = set(state["phase"]["roads"])
    out = []

    def walk(loc, path, highway):
        for nxt in comp.adjacent[loc]:
            if nxt == origin or nxt in path or road_key(loc, nxt) in used:
                continue
            hw = highway and bool(comp.road(loc, nxt))
            out.append((path + [nxt], hw))
            if len(path) + 1 < capacity(hw, lead, march, 1) and nxt not in stops:
                walk(nxt, path + [nxt], hw)

    walk(origin, [], True)
    return out


def _searched_moves(state, comp, side, origin):
    """7.3.1-7.3.6 written out from a plain search of the map: the stack at `origin` whole
    and (if more than one) each of its blocks alone along every path within its reach,
    with the lowest card as force march where only that gets it there."""
    phase = state["phase"]
    if phase["level"] == "none" or phase["moves_left"] == 0:  # 7.1
        return []
    here = blocks_at(state, comp, origin, side)
    movable = [b for b in here if b not in phase["moved"] and b not in phase["arrived"]]
    if origin in phase["sources"] or state["besieged"].get(origin) == side or not movable:
        return []
    leader = None
    lead = leadership(state, comp, side, origin, None) is not None
    if not lead:
        leader = next((b for b in here if comp.blocks[b].leader), None)
        lead = leader is not None
    hand = sorted(state["cards"][side]["hand"])
    card = hand[0] if hand else None
    stops = {loc for loc, sides in presence(state, comp).items() if other(side) in sides}
    out = []
    for path, hw in _searched_paths(state, comp, origin, stops, lead, card is not None):
        for blocks in [movable] + ([[b] for b in movable] if len(movable) > 1 else []):
            reach = capacity(hw, lead, False, len(blocks))
            if len(path) > reach + (card is not None):
                continue
            group = {"blocks": blocks, "path": path}
            if len(path) > reach:
                group["force_march"] = card
            act = {"type": "move", "from": origin, "groups": [group]}
            if leader is not None:
                act["leader"] = leader
            out.append(act)
    return out


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_7_3_the_listed_moves_are_those_a_search_of_the_map_finds(comp, seed):
    for state, side in _movement_states(comp, seed)[::3]:
        listed = [a for a in listing(state, comp, side) if a["type"] == "move"]
        searched = [
            act
            for origin in sorted(comp.locations)
            for act in _searched_moves(state, comp, side, origin)
        ]
        assert listed == searched


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_7_3_2_one_survey_says_what_the_states_queries_say(comp, seed):
    for state, side in _movement_states(comp, seed)[::4]:
        seen = listing_moves.survey(state, comp, side)
        present = presence(state, comp)
        assert seen.stops == {loc for loc, sides in present.items() if other(side) in sides}
        assert seen.held == {loc for loc, sides in present.items() if side in sides}
        assert seen.recruit == blocks_at(state, comp, RECRUIT, side)
        assert seen.roads == set(state["phase"]["roads"])
        mine = {loc: blocks_at(state, comp, loc, side) for loc in comp.locations}
        assert seen.stacks == {loc: blocks for loc, blocks in sorted(mine.items()) if blocks}
        for loc in comp.locations:
            assert seen.sides(loc) == sides_at(state, comp, loc)
            assert castle_controller(state, comp, loc, seen.sides(loc)) == castle_controller(
                state, comp, loc
            )


def test_unit_sides_answer_for_every_block_and_disk(comp):
    assert {b: comp.unit_side[b] for b in comp.blocks} == {
        b: spec.side for b, spec in comp.blocks.items()
    }
    assert {d: comp.unit_side[d] for d in comp.disks} == {
        d: spec.side for d, spec in comp.disks.items()
    }
    assert set(comp.unit_side.values()) <= set(SIDES)


def test_a_two_party_copys_hidden_blocks_have_the_side_their_handle_names(comp):
    from sekigahara_pbem.twoparty.knowledge import knowing

    known = knowing(comp)
    assert known.unit_side["?ishida-s55"] == "ishida"
    assert known.unit_side["?tokugawa-s3"] == "tokugawa"
    real = next(iter(comp.blocks))
    assert known.unit_side[real] == comp.blocks[real].side
