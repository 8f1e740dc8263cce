"""One model of hidden information (rules/views.py, 3.1, 4.4, 8.2.1): along random games,
what a view shows is inside the public form, the public form inside the state, and the
items the referee commits to (protocol/commitments.py) and a two-party public form names by
handles (twoparty/knowledge.py) are the very items `hidden_items` lists."""

from __future__ import annotations

import pytest

from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.views import hidden_items, view
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.testing.random_player import playout
from sekigahara_pbem.twoparty import knowledge as kn

COMP = load_components()


def ids(value: object) -> set[str]:
    """The block and card ids a value names."""
    return {n for n in kn.names_in(value) if n in COMP.blocks or n in COMP.cards}


def hidden_ids(state: dict) -> set[str]:
    out = {item for kind, item, _ in hidden_items(state) if kind != "sealed"}
    return out | {n for n in ids(state["sealed"])}


def public_form(state: dict) -> dict:
    """The state with every hidden item masked and its secret parts gone."""
    masked = kn.replace(state, {h: "?" for h in hidden_ids(state)})
    return {k: v for k, v in masked.items() if k not in ("rng", "plans")}


def check(before, after, side, action, events) -> None:
    state = after
    hidden = hidden_ids(state)
    public = public_form(state)
    assert ids(public) == ids(state) - hidden  # the public form: the state but the hidden
    assert ids(view(state, COMP, None)) <= ids(public)  # what everyone sees is public
    for s in SIDES:
        own = view(state, COMP, s)
        seen = ids(own) - ids(public)  # what the side sees beyond the public form
        hand = set(state["cards"][s]["hand"])
        mine = {b for b in COMP.side_blocks(s)}
        written = ids(state["sealed"].get(s)) | ids(state["plans"].get(s))  # its own words
        assert seen <= mine | hand | written, (s, sorted(seen - mine - hand - written))
    decks = {c for s in SIDES for c in state["cards"][s]["deck"]}
    assert decks <= hidden  # a draw pile's cards are hidden from all


@pytest.mark.parametrize("seed", range(6))
def test_3_views_inside_the_public_form_inside_the_state(seed):
    playout(COMP, seed, on_step=check)


def test_8_2_1_a_deployed_block_is_public_and_not_committed():
    found = []

    def deployed(before, after, side, action, events):
        fight = (after["combat"] or {}).get("fight") or {}
        for d in fight.get("deployments", []):
            found.extend(d["blocks"])
            assert not set(d["blocks"]) & hidden_ids(after)
            assert set(d["blocks"]) <= ids(view(after, COMP, None))

    for seed in range(6):
        playout(COMP, seed, on_step=deployed)
    assert found  # the games had battles
