"""Component sets mutated from the packaged one (tests/component_mutations.py): each is
refused with a one-line ComponentError naming its file and field, or loads and plays a
random game to the end with its invariants holding (issue 37). A short run here; the
long one (10,000 sets) is marked slow."""

from __future__ import annotations

import pytest
from component_mutations import run


def _judged(count: int, seed: int, folder) -> None:
    out = run(count, seed, folder)
    assert out.sets == count
    assert not out.failures, out.failures[:5]
    assert out.accepted and out.refused  # both ways are exercised
    assert out.played == out.accepted


def test_two_hundred_mutated_sets_are_refused_or_played(tmp_path):
    _judged(200, 0, tmp_path)


@pytest.mark.slow
def test_ten_thousand_mutated_sets_are_refused_or_played(tmp_path):
    _judged(10_000, 1_000_000, tmp_path)
