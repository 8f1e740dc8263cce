"""The computer players' weights are data (issue 39): bot/weights.toml holds every one,
each module reads its own from it, `apply` changes what the modules read, the tuner
(bench/tune.py) fits the heuristic's and writes them back in place, comments kept, and
bench/fit_value.py fits the search's evaluation to games' outcomes."""

from __future__ import annotations

import importlib
import math
import random
import sys
import tomllib
from pathlib import Path

from sekigahara_pbem.bot import weights

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
import fit_value  # noqa: E402 - bench/ is not a package
import tune  # noqa: E402


def _read(key: str) -> float:
    module, name = key.split(".")
    return getattr(importlib.import_module(f"sekigahara_pbem.bot.{module}"), name)


def test_every_weight_is_read_by_its_module_and_lies_within_its_bounds():
    values, bounds = weights.load(), weights.bounds()
    assert sorted(values) == sorted(bounds)
    for key, value in values.items():
        assert _read(key) == value, key
        low, high = bounds[key]
        assert low <= value <= high, key


def test_apply_changes_what_the_player_reads_and_puts_it_back():
    values = weights.load()
    try:
        weights.apply({key: value + 1 for key, value in values.items()})
        assert all(_read(key) == value + 1 for key, value in values.items())
    finally:
        weights.apply(values)
    assert all(_read(key) == value for key, value in values.items())


def test_the_tuner_writes_its_values_in_place_and_keeps_the_comments(tmp_path):
    path = tmp_path / "weights.toml"
    text = weights.PATH.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    fitted = {key: round(value * 1.5 + 0.01, 2) for key, value in weights.load().items()}
    tune.write(fitted, path)
    written = path.read_text(encoding="utf-8")
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert [line for line in written.splitlines() if line.startswith("#")] == comments
    tables = tomllib.loads(written)
    for key, value in fitted.items():
        module, name = key.split(".")
        assert tables[module][name] == value
    assert tables["bounds"] == tomllib.loads(text)["bounds"]


def test_the_tuner_leaves_the_searchs_evaluation_alone():
    """No heuristic decision reads [rollout]: self-play between heuristics could only walk
    its weights at random, so the tuner takes every weight but those."""
    tuned, every = weights.tuned(), weights.load()
    assert tuned and all(every[key] == value for key, value in tuned.items())
    assert sorted(set(every) - set(tuned)) == [
        "rollout.CARD", "rollout.GUARD", "rollout.LEADER", "rollout.MATERIAL"
    ]  # fmt: skip


def test_the_evaluation_fit_finds_the_weights_that_made_the_outcomes():
    """Outcomes drawn from a known logistic model of the counts come back as its weights,
    in points per unit (over the point difference's weight; GUARD the negated one)."""
    true = [0.2, 0.05, 0.1, 0.08, -0.04]
    draw = random.Random(7)
    rows = []
    for _ in range(20000):
        x = fit_value.Counted(*(draw.gauss(0, scale) for scale in (4, 6, 1, 2, 3)))
        p = 1 / (1 + math.exp(-sum(w * c for w, c in zip(true, x, strict=True))))
        rows.append((int(draw.random() < p), x))
    found = fit_value.in_points(fit_value.fit(rows))
    expected = {"MATERIAL": 0.25, "LEADER": 0.5, "CARD": 0.4, "GUARD": 0.2}
    for name, value in expected.items():
        assert abs(found[name] - value) < 0.1, (name, found)
