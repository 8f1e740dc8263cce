"""The heuristic player's weights are data (issue 39): bot/weights.toml holds every one,
each module reads its own from it, `apply` changes what the modules read, and the tuner
(bench/tune.py) writes fitted values back in place, comments kept."""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path

from sekigahara_pbem.bot import weights

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
import tune  # noqa: E402 - bench/ is not a package


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
