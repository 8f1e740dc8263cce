"""A forfeit ends a game through the engine like any other ending (rule 2 and the
protocols' deadlines, docs/two-party.md): one result shape for reports and both modes,
and never an action a player can send."""

from __future__ import annotations

import pytest

from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import apply, forfeit, pending
from sekigahara_pbem.rules.vocab import OVER, RuleViolation


@pytest.fixture(scope="module")
def started():
    comp = load_components()
    state, _ = setup(comp, "f0" * 16)
    return comp, state


def test_2_a_deadline_forfeit_ends_the_game_for_the_other_side(started):
    _, state = started
    before = repr(state)
    over, events = forfeit(state, "ishida", "deadline", "ishida sent nothing")
    assert repr(state) == before  # the caller's state is kept whole
    assert over["result"] == {"winner": "tokugawa", "how": "forfeit", "rule": "deadline",
                              "reason": "ishida sent nothing"}  # fmt: skip
    assert over["step"] == OVER and over["active"] is None and pending(over) == []
    assert events == [{"type": "game_over", **over["result"]}]


def test_2_a_reveal_forfeit_keeps_the_result_played(started):
    comp, state = started
    resigned, _ = apply(state, comp, "tokugawa", {"type": "resign"})
    over, _ = forfeit(resigned, "ishida", "reveal", "ishida did not reveal")
    assert over["result"]["winner"] == "tokugawa"
    assert over["result"]["played"] == resigned["result"]


def test_2_a_player_cannot_send_a_forfeit(started):
    comp, state = started
    for side in ("ishida", "tokugawa"):
        with pytest.raises(RuleViolation):
            apply(state, comp, side, {"type": "forfeit", "rule": "deadline", "reason": "x"})


def test_2_a_game_ends_once(started):
    comp, state = started
    resigned, _ = apply(state, comp, "tokugawa", {"type": "resign"})
    with pytest.raises(ValueError):  # a caller's bug, never a player's input
        forfeit(resigned, "ishida", "deadline", "ishida sent nothing")
