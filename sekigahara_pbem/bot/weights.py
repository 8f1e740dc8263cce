"""The heuristic player's weights, kept as data (weights.toml) rather than set in code, so
that bench/tune.py can fit them to self-play and write them back. Each module of the
player reads its own by name when it is imported (`WEIGHTS["moves.PROGRESS"]`); the
tuner changes them in place (`apply`) for a game between two sets."""

from __future__ import annotations

import tomllib
from importlib import import_module
from pathlib import Path

PATH = Path(__file__).with_name("weights.toml")
ROLLOUT = "rollout"  # the table of the search's evaluation (rollout.py)


def _tables() -> dict:
    return tomllib.loads(PATH.read_text(encoding="utf-8"))


def load() -> dict[str, float]:
    """Every weight, by its module and constant's name ("moves.PROGRESS")."""
    return {
        f"{module}.{name}": float(value)
        for module, table in _tables().items()
        if module != "bounds"
        for name, value in table.items()
    }


def tuned() -> dict[str, float]:
    """The weights bench/tune.py fits by self-play: all but the search's evaluation's
    ([rollout], which no heuristic decision reads: bench/fit_value.py fits it to games'
    outcomes)."""
    return {key: value for key, value in load().items() if not key.startswith(f"{ROLLOUT}.")}


def bounds() -> dict[str, tuple[float, float]]:
    """The lowest and highest value the tuner may give each weight."""
    return {name: (float(low), float(high)) for name, (low, high) in _tables()["bounds"].items()}


def apply(values: dict[str, float]) -> None:
    """Put `values` in place of the weights the modules read (the tuner's games)."""
    for key, value in values.items():
        module, name = key.split(".")
        setattr(import_module(f"{__package__}.{module}"), name, value)


WEIGHTS = load()
