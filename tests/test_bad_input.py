"""Bad input never crashes the engine: any action, however malformed or hostile, is either
applied or refused with RuleViolation/Malformed, and a refusal leaves the state as it was."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.position import build_position
from sekigahara_pbem.rules.state import canonical
from sekigahara_pbem.rules.vocab import Malformed, RuleViolation
from sekigahara_pbem.testing.random_player import playout

NAMES = [
    "osaka",
    "kyoto",
    "edo",
    "ukita-2a",
    "tokugawa-leader",
    "mori-1",
    "mori-leader",
    "loyalty-ishida-1",
    "loyalty-tokugawa-1",
    "ukita-double-1",
    "hideyori",
    "sanada",
    "ishida-mitsunari",
    "sekigahara",
    "recruit",
    "bag",
    "A",
    "B",
    "total",
    "none",
    "ishida",
    "",
    "x" * 300,
]
TYPES = [
    "level",
    "move",
    "muster",
    "mori",
    "end_movement",
    "bid",
    "discard",
    "choose_first",
    "combat",
    "declare",
    "castle",
    "deploy",
    "finish",
    "challenge",
    "decline",
    "losses",
    "retreat",
    "",
    None,
    3,
]
KEYS = [
    "type",
    "level",
    "cards",
    "from",
    "groups",
    "blocks",
    "path",
    "leader",
    "force_march",
    "option",
    "to",
    "card",
    "first",
    "location",
    "inside",
    "refute",
    "units",
    "castle",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 10**12),
    st.floats(),
    st.sampled_from(NAMES),
    st.text(max_size=5),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)
    ),
    max_leaves=12,
)
actions = st.one_of(
    values,
    st.fixed_dictionaries({"type": st.sampled_from(TYPES)}, optional={k: values for k in KEYS[1:]}),
)

MOVEMENT_POSITION = {
    "week": 2,
    "step": "movement",
    "first": "ishida",
    "active": "ishida",
    "phase": {"level": "total"},
    "blocks": {
        "osaka": ["ukita-2a", "ukita-2b"],
        "edo": ["tokugawa-leader"],
        "kyoto": ["kobayakawa-leader"],
        "recruit": ["ukita-3a", "mori-2a"],
    },
    "hands": {"ishida": ["mori-1", "mori-2", "ukita-1"], "tokugawa": ["date-1"]},
}


def _refuses_cleanly(comp, state, side, action):
    before = canonical(state)
    try:
        apply(state, comp, side, action)
    except (RuleViolation, Malformed) as exc:
        assert str(exc).strip() and "\n" not in str(exc)
    assert canonical(state) == before


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=actions, side=st.sampled_from(["ishida", "tokugawa", "referee", ""]))
def test_hostile_actions_in_movement(comp, action, side):
    _refuses_cleanly(comp, build_position(comp, MOVEMENT_POSITION), side, action)


def _combat_states(comp) -> list:
    """States waiting for every kind of combat decision, taken from random games."""
    if not COMBAT_STATES:
        seen: dict[str, int] = {}

        def keep(before, after, side, action, events):
            for d in pending(after):
                if after["step"] == "combat" and seen.get(d["decision"], 0) < 4:
                    seen[d["decision"]] = seen.get(d["decision"], 0) + 1
                    COMBAT_STATES.append(after)

        for seed in range(6):
            playout(comp, seed, on_step=keep)
        assert {"declare", "castle", "deploy", "challenge", "losses", "retreat"} <= set(seen)
    return COMBAT_STATES


COMBAT_STATES: list = []


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 23), action=actions, side=st.sampled_from(["ishida", "tokugawa"]))
def test_hostile_actions_in_combat(comp, index, action, side):
    states = _combat_states(comp)
    _refuses_cleanly(comp, states[index % len(states)], side, action)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=actions, side=st.sampled_from(["ishida", "tokugawa"]))
def test_hostile_actions_at_the_bid(comp, action, side):
    state, _ = setup(comp, "ab" * 16)
    assert pending(state)
    _refuses_cleanly(comp, state, side, action)


POSITION_KEYS = [
    "week",
    "turn",
    "step",
    "first",
    "blocks",
    "hands",
    "decks",
    "discards",
    "control",
    "castle_owner",
    "besieged",
    "disks",
    "phase",
    "options",
    "seed",
    "result",
    "unlisted_cards",
    "bid_winner",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.fixed_dictionaries(
        {"active": st.sampled_from(["ishida", "tokugawa", None])},
        optional={k: values for k in POSITION_KEYS},
    )
)
def test_hostile_positions_are_refused_as_malformed(comp, spec):
    try:
        build_position(comp, spec)
    except Malformed as exc:
        assert "\n" not in str(exc)


def test_hostile_position_examples_name_their_field(comp):
    cases = {
        "position.phase.level": {"active": "ishida", "phase": {"level": [1]}},
        "position.week": {"active": "ishida", "week": True},
        "position.phase.moves_left": {
            "active": "ishida",
            "phase": {"level": "total", "moves_left": "x"},
        },
        "position.seed": {"active": "ishida", "seed": "zz"},
        "position.result": {"step": "over", "result": 5},
        "position.options.capitals_start_controlled": {
            "active": "ishida",
            "options": {"capitals_start_controlled": "x"},
        },
    }
    for field, spec in cases.items():
        try:
            build_position(comp, spec)
        except Malformed as exc:
            assert exc.field == field, (field, exc)
        else:
            raise AssertionError(f"{field}: accepted {spec}")
