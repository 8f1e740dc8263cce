"""Properties over random legal games: conservation, 7.3.1 bookkeeping, redaction,
purity of apply, canonical round trips, and that every listed option is legal."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sekigahara_pbem.rules.invariants import check_all, conservation
from sekigahara_pbem.rules.state import canonical
from sekigahara_pbem.rules.views import redact_event
from sekigahara_pbem.rules.vocab import OVER, SIDES
from sekigahara_pbem.testing.random_player import playout


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_random_games_keep_every_invariant(comp, seed):
    def check(before, after, side, action, events):
        before_text = canonical(before)
        problems = check_all(after, comp)
        assert not problems, (seed, action, problems)
        assert json.loads(canonical(after)) == after
        # apply is pure: the state it was given is unchanged
        assert canonical(before) == before_text

    final = playout(comp, seed, on_step=check)
    assert final["step"] == OVER
    assert final["result"]["winner"] in SIDES


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_redacted_events_hide_the_other_sides_private_part(comp, seed):
    def check(before, after, side, action, events):
        for event in events:
            for viewer in (*SIDES, None):
                seen = redact_event(event, viewer)
                assert "private" not in seen
                for owner, private in event.get("private", {}).items():
                    if owner != viewer:
                        for key, value in private.items():
                            assert seen.get(key) != value or key in event, (event, viewer)

    playout(comp, seed, max_actions=400, on_step=check)


def test_setup_is_deterministic_and_conserves(comp):
    from sekigahara_pbem.rules.cycle.setup import setup

    a, _ = setup(comp, "11" * 16)
    b, _ = setup(comp, "11" * 16)
    c, _ = setup(comp, "12" * 16)
    assert canonical(a) == canonical(b)
    assert canonical(a) != canonical(c)
    assert conservation(a, comp) == []
