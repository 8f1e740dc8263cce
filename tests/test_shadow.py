"""The shadow state a player checks orders against: built from one side's view alone, it
shows that side exactly the same view, and every legal option applies to it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sekigahara_pbem.rules.engine import apply
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.shadow import shadow_state
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.testing.random_player import playout


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_shadow_shows_the_same_view_and_takes_every_option(comp, seed):
    def check(before, after, side, action, events):
        for s in SIDES:
            seen = view(after, comp, s)
            shadow = shadow_state(comp, seen, after["options"])
            assert view(shadow, comp, s) == seen
            for option in options(after, comp, s)[:20]:
                apply(shadow, comp, s, option)

    playout(comp, seed, on_step=check)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_a_packets_options_are_those_of_its_readers_shadow(comp, seed):
    """The referee lists a side's options from the full state (protocol/packets.py); they are
    exactly the options on the state the side can rebuild from its own view, so nothing in
    the list depends on what the side may not see (DESIGN.md: everything a player sees
    comes from its view)."""
    checked = []

    def check(before, after, side, action, events):
        for s in SIDES:
            listed = options(after, comp, s)
            if listed:
                shadow = shadow_state(comp, view(after, comp, s), after["options"])
                assert options(shadow, comp, s) == listed
                checked.append(s)

    playout(comp, seed, on_step=check)
    assert checked
