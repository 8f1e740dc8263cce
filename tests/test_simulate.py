"""`seki simulate`: complete random games, every invariant after every action, a census of
what happened, and a violation reported as a seed and an action number."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sekigahara_pbem.testing import invariant_fuzzer as sim


@pytest.mark.slow
def test_sample_of_complete_games_runs_clean(comp):
    summary = sim.simulate(comp, games=40, seed=20_000)
    assert summary.violation is None, summary.violation
    assert summary.games == 40
    assert sum(summary.winners.values()) == 40
    assert set(summary.victories) <= {"instant", "points"}
    for kind in ("battles", "sieges", "retreats"):
        assert summary.events[kind] > 0, kind


def test_same_seed_same_games(comp):
    a = sim.simulate(comp, games=3, seed=7, check=False)
    b = sim.simulate(comp, games=3, seed=7, check=False)
    assert (a.actions, a.winners, a.events) == (b.actions, b.winners, b.events)


def test_first_violation_names_seed_and_action(comp, monkeypatch):
    calls = []

    def broken(state, comp):
        calls.append(1)
        return ["planted problem"] if len(calls) == 5 else []

    monkeypatch.setattr(sim, "check_all", broken)
    summary = sim.simulate(comp, games=3, seed=11)
    assert summary.violation == sim.Violation(11, 5, ["planted problem"])
    assert summary.games == 0


def test_cli_prints_summary_and_exit_status():
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", "simulate", "--games", "2", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games, ")
    assert "winners: " in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", "simulate", "--games", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert "Traceback" not in bad.stderr
