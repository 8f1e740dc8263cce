"""The shapes the reports check before describing (reports/shapes.py), issue 29: every
event of random games fits its kind's shape, whole and as each side and the public see it,
and so does every option listed; describing any of them raises nothing. One of another
shape is described generically; a describer that fails on a fitting one is a bug, and
surfaces: no report catches it."""

from __future__ import annotations

import pytest

from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.reports import choices, events, shapes
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import pending
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.views import redact_event, view
from sekigahara_pbem.rules.vocab import SIDES
from sekigahara_pbem.testing.random_player import playout


@pytest.fixture(scope="module")
def comp():
    return load_components()


@pytest.fixture(scope="module")
def seen(comp):
    """The events (as each reader sees them) and options of a few random games."""
    found_events, found_options = [], []

    def hook(before, after, side, action, new_events):
        for event in new_events:
            found_events.append(event)
            found_events.extend(redact_event(event, reader) for reader in (None, *SIDES))
        for decision in pending(after):
            listed = options(after, comp, decision["side"])
            seen_view = view(after, comp, decision["side"])
            found_options.extend(
                (o, seen_view, decision["side"]) for o in listed[:: max(1, len(listed) // 30)]
            )

    for seed in range(6):
        hook(None, setup(comp, f"{seed:032x}")[0], "", {}, setup(comp, f"{seed:032x}")[1])
        playout(comp, seed, on_step=hook)
    return found_events, found_options


def test_every_event_of_the_engine_fits_its_shape_and_is_described(comp, seen):
    found, _ = seen
    kinds = {e["type"] for e in found}
    assert len(kinds) >= 25 and "setup_random" in kinds, kinds
    for event in found:
        assert shapes.fits(event, shapes.EVENTS, comp), event
        events.describe(event, comp)


def test_every_option_listed_fits_its_shape_and_is_described(comp, seen):
    _, found = seen
    assert len({o["type"] for o, _, _ in found}) >= 12
    for option, seen_view, side in found:
        assert shapes.fits(option, shapes.OPTIONS, comp), option
        choices.describe_option(option, comp, seen_view, side)


def test_every_describer_has_a_shape(comp):
    assert set(shapes.EVENTS) == set(events.DESCRIBERS)
    assert set(shapes.OPTIONS) == set(choices.OPTION_DESCRIBERS)


@pytest.mark.parametrize(
    "odd",
    [
        {"type": "move", "from": "edo", "groups": [["a"], {"count": "1", "path": []}]},
        {"type": "discard", "side": "ishida", "cards": "c1"},
        {"type": "sealed", "side": "ishida", "step": ["bid"]},
        {"type": "deploy", "side": "ishida", "location": "gifu", "blocks": [], "impacts": [{}]},
    ],
)
def test_an_event_of_another_shape_is_described_generically(comp, odd):
    assert not shapes.fits(odd, shapes.EVENTS, comp)
    assert events.describe(odd, comp).startswith(f"{odd['type']}: ")


def test_a_describer_that_fails_on_a_fitting_event_is_a_bug(comp, monkeypatch):
    def broken(event, comp):
        raise KeyError("a bug")

    monkeypatch.setitem(events.DESCRIBERS, "week", broken)
    with pytest.raises(KeyError):
        events.describe({"type": "week", "week": 2}, comp)
