"""Component sets mutated from the packaged one (tests/component_mutations.py): each is
refused with a one-line ComponentError naming its file and field, or loads and plays a
random game to the end with its invariants holding (issue 37). A short run here; the
long one is marked slow: SEKI_COMPONENT_FUZZ=N sets (10,000) from SEKI_COMPONENT_FUZZ_SEED=S
(1,000,000) on, in SEKI_COMPONENT_FUZZ_JOBS=J processes (the CPUs, at most 4)."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from component_mutations import Outcome, run

COUNT = int(os.environ.get("SEKI_COMPONENT_FUZZ", "10000"))
SEED = int(os.environ.get("SEKI_COMPONENT_FUZZ_SEED", "1000000"))
JOBS = int(os.environ.get("SEKI_COMPONENT_FUZZ_JOBS", min(4, os.cpu_count() or 1)))


def _in_parallel(count: int, seed: int, folder, jobs: int) -> Outcome:  # noqa: ANN001 - a Path
    """`run` of `count` sets from `seed` on, split between `jobs` processes (each its
    own seeds and folder), the outcomes added up: the same sets as one process runs."""
    each = -(-count // jobs)
    parts = [(min(each, count - i * each), seed + i * each, folder / f"job-{i}")
             for i in range(jobs) if i * each < count]  # fmt: skip
    for _, _, part in parts:
        part.mkdir()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(len(parts), mp_context=spawn) as pool:
        outcomes = list(pool.map(run, *zip(*parts, strict=True)))
    total = Outcome()
    for one in outcomes:
        total.sets += one.sets
        total.accepted += one.accepted
        total.played += one.played
        total.refused += one.refused
        total.failures += one.failures
        total.messages |= one.messages
    return total


def _judged(count: int, seed: int, folder, jobs: int = 1) -> None:  # noqa: ANN001 - a Path
    out = run(count, seed, folder) if jobs == 1 else _in_parallel(count, seed, folder, jobs)
    assert out.sets == count
    assert not out.failures, out.failures[:5]
    assert out.accepted and out.refused  # both ways are exercised
    assert out.played == out.accepted


def test_two_hundred_mutated_sets_are_refused_or_played(tmp_path):
    _judged(200, 0, tmp_path)


@pytest.mark.slow
def test_many_mutated_sets_are_refused_or_played(tmp_path):
    print(f"{COUNT} sets from seed {SEED}")
    _judged(COUNT, SEED, tmp_path, JOBS)
