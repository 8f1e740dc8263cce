"""The engine's state types (rules/state_types.py) hold for every state of random games:
each part has its required keys, no other keys, and values of the declared types."""

from __future__ import annotations

import types
import typing

from sekigahara_pbem.rules.state_types import Combat, Fight, Phase, State
from sekigahara_pbem.testing.random_player import playout


def _conforms(value: object, kind: object, where: str) -> None:
    if typing.get_origin(kind) in (types.UnionType, typing.Union):
        options = typing.get_args(kind)
        assert any(_fits(value, k) for k in options), (where, value, kind)
        for k in options:
            if k is not type(None) and _fits(value, k) and typing.is_typeddict(k):
                _check(value, k, where)
        return
    if typing.is_typeddict(kind):
        _check(value, kind, where)
        return
    assert isinstance(value, kind), (where, value, kind)


def _fits(value: object, kind: object) -> bool:
    if kind is type(None):
        return value is None
    return isinstance(value, dict if typing.is_typeddict(kind) else kind)


def _check(value: dict, kind: type, where: str) -> None:
    hints = typing.get_type_hints(kind)
    assert kind.__required_keys__ <= value.keys() <= hints.keys(), (where, sorted(value))
    for key, item in value.items():
        _conforms(item, hints[key], f"{where}.{key}")


def test_every_state_of_random_games_has_the_declared_shape(comp):
    seen = {State: 0, Phase: 0, Combat: 0, Fight: 0}

    def hook(before, after, side, action, events):
        for state in (before, after):
            _check(state, State, "state")
            seen[State] += 1
            seen[Phase] += state["phase"] is not None
            seen[Combat] += state["combat"] is not None
            seen[Fight] += bool(state["combat"] and state["combat"]["fight"])

    for seed in range(8):
        playout(comp, seed, on_step=hook)
    assert all(seen.values()), seen
