"""The declared state types (rules/state_types.py) where random games seldom go, checked as
tests/test_state_types.py checks theirs: a card named to refute a Loyalty Challenge is kept
as its id (`Fight.refute`), and a retreat that ends the game leaves its fight behind with
no stage (`Fight.stage` None)."""

from __future__ import annotations

from test_state_types import _check

from sekigahara_pbem.rules.engine import apply
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.state_types import State
from sekigahara_pbem.rules.vocab import OVER


def test_a_card_named_to_refute_is_kept_as_its_id(comp):
    state = build_position(
        comp,
        {
            "week": 2,
            "first": "ishida",
            "active": "ishida",
            "phase": {"level": "none", "entered": {"suwa": ["kofu"]}},
            "blocks": {"suwa": ["ukita-2a", "ukita-2b", "tokugawa-2a"]},
            "hands": {
                "ishida": ["ukita-1", "ukita-2", "ukita-swords-1"],
                "tokugawa": ["loyalty-tokugawa-1", "tokugawa-1"],
            },
        },
    )
    state, _ = apply(state, comp, "ishida", {"type": "end_movement"})
    deploy = {"type": "deploy", "card": "ukita-1", "blocks": ["ukita-2a"]}
    state, _ = apply(state, comp, "ishida", {**deploy, "refute": "ukita-swords-1"})
    assert state["combat"] and state["combat"]["fight"]
    assert state["combat"]["fight"]["refute"] == "ukita-swords-1"
    _check(state, State, "state")


def test_a_retreat_that_ends_the_game_leaves_its_fight_without_a_stage(comp):
    """Ishida attacks Tanabe from Kumano and loses (no cards: a tie favours the defender,
    8.2.1); its four blocks left must retreat to Kumano (8.8.2), where they overrun the
    Tokugawa leader alone (7.4): Ishida wins at once (2.1), with the fight not closed. Only
    the loss is a choice: the rest is forced."""
    ishida = ["mori-3e", "mori-3f", "mori-2a", "mori-2b", "mori-2c"]
    state = build_position(
        comp,
        {
            "week": 2,
            "first": "ishida",
            "active": "ishida",
            "phase": {"level": "none", "entered": {"tanabe": ["kumano"]}},
            "blocks": {
                "tanabe": [*ishida, "tokugawa-3a", "tokugawa-3b"],
                "kumano": ["tokugawa-leader"],
            },
        },
    )
    state, _ = apply(state, comp, "ishida", {"type": "end_movement"})
    state, _ = apply(state, comp, "ishida", {"type": "losses", "units": ["mori-2c"]})
    assert state["step"] == OVER and state["result"] and state["result"]["winner"] == "ishida"
    assert state["combat"] and state["combat"]["fight"]
    assert state["combat"]["fight"]["stage"] is None
    _check(state, State, "state")
