"""Issue 11's fuzzing, in CI's size: mutated turn files, joins, packets, game definitions,
identity files and archive files through the real commands; no traceback, no hang, and
no refused file changes the game (tests/fuzzing.py; bench/fuzz.py runs any count)."""

from __future__ import annotations

import os

import pytest
from fuzzing import Table, run

COUNT = int(os.environ.get("SEKI_FUZZ_COUNT", "400"))


@pytest.mark.slow
def test_mutated_documents_never_crash_hang_or_change_a_game(tmp_path):
    table = Table(tmp_path)
    outcome = run(table, COUNT, seed=1)
    assert not outcome.failures, outcome.failures[:5]
    points = {point for point, _ in outcome.runs}
    assert points >= {"adjudicate", "turn check", "view", "join", "keys show", "verify"}
    assert sum(outcome.runs.values()) >= COUNT
