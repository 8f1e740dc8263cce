"""Fits the heuristic player's weights (sekigahara_pbem/bot/weights.toml) to self-play, by
SPSA (simultaneous perturbation stochastic approximation), as chess engines tune theirs:
each step draws a random sign for every weight, plays a pair of games (one seed, sides
swapped) between the weights moved a little each way, and moves every weight towards the
side that won. Hundreds of pairs find a gradient no single game shows, for the price of
two games a step whatever the number of weights.

Usage: python bench/tune.py [PAIRS] [--seed S] [--jobs J] [--write] [--quick]
(default 400 pairs, from seed 0; --write: the fitted weights, the mean over the second
half of the pairs, into weights.toml in place of the values there, comments kept;
--quick: CI's run, two pairs). The fitted weights
are only a candidate: bench/bot_strength.py (or a series against the weights before)
says whether they play better, and docs/bot.md keeps the figures.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import time
from multiprocessing import Pool
from pathlib import Path

from sekigahara_pbem.bot import weights
from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.vocab import SIDES

STEP = 0.1  # a won pair moves each weight by this share of its perturbation
SHARE = 0.25  # a weight's perturbation: this share of its value (at least FLOOR)
FLOOR = 0.05


class Weighted(HeuristicPlayer):
    """The heuristic with weights of its own: they are put in place before each decision
    (both players of a game share one process and its modules)."""

    def __init__(self, comp, values: dict[str, float], seed: str) -> None:  # noqa: ANN001
        super().__init__(comp, {}, seed)
        self.values = values

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        weights.apply(self.values)
        return super().actions(v, offered)


def pair(job: tuple[int, dict[str, float], dict[str, float]]) -> int:
    """Two games of one seed, sides swapped, `plus` against `minus`: plus's wins less
    minus's (-2 to 2)."""
    seed, plus, minus = job
    comp = load_components()
    score = 0
    for first in SIDES:
        players = {
            s: Weighted(comp, plus if s == first else minus, f"tune-{seed}-{s}") for s in SIDES
        }
        winner = play(comp, f"{seed:032x}", players).state["result"]["winner"]
        score += 1 if winner == first else -1 if winner is not None else 0
    return score


def tune(pairs: int, seed: int, jobs: int) -> dict[str, float]:
    """SPSA over `pairs` pairs of games from `seed`, `jobs` pairs at a time (their steps
    are drawn from the same weights), from the weights in weights.toml: the mean of the
    weights over the second half of the pairs (a single step's weights wander by the
    noise of its last few games; their mean does not)."""
    theta = weights.tuned()
    bounds = weights.bounds()
    chooser = random.Random(seed)
    done = 0
    kept: list[dict[str, float]] = []
    start = time.monotonic()
    with Pool(jobs) as pool:
        while done < pairs:
            batch = min(jobs, pairs - done)
            steps, tasks = [], []
            for i in range(batch):
                delta = {n: chooser.choice((-1, 1)) * _size(theta[n]) for n in theta}
                plus = {n: _clip(theta[n] + d, bounds[n]) for n, d in delta.items()}
                minus = {n: _clip(theta[n] - d, bounds[n]) for n, d in delta.items()}
                steps.append(delta)
                tasks.append((seed + done + i, plus, minus))
            for delta, score in zip(steps, pool.map(pair, tasks), strict=True):
                for n, d in delta.items():
                    theta[n] = _clip(theta[n] + STEP * score / 2 * d, bounds[n])
            done += batch
            if 2 * done > pairs:
                kept.append(dict(theta))
            if done % (10 * jobs) == 0 or done == pairs:
                shown = ", ".join(f"{n} {v:.3g}" for n, v in theta.items())
                print(f"pair {done} ({time.monotonic() - start:.0f} s): {shown}", flush=True)
    return {n: sum(t[n] for t in kept) / len(kept) for n in theta}


def _size(value: float) -> float:
    return max(FLOOR, SHARE * abs(value))


def _clip(value: float, bound: tuple[float, float]) -> float:
    return min(bound[1], max(bound[0], value))


def write(theta: dict[str, float], path: Path) -> None:
    """The weights file with `theta`'s values in place of its own, comments and order
    kept."""
    text = path.read_text(encoding="utf-8")
    for key, value in theta.items():
        name, shown = key.split(".")[1], f"{value:.3g}"
        line = re.compile(rf"(?m)^({re.escape(name)} = )[-0-9.e]+")
        text, n = line.subn(lambda m, shown=shown: m.group(1) + shown, text)
        if n != 1:
            raise SystemExit(f"{path}: no line sets {name}")
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="?", type=int, default=400, help="pairs of games")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=2, help="pairs played at a time")
    parser.add_argument("--write", action="store_true", help="write the fitted weights")
    parser.add_argument("--quick", action="store_true", help="CI's run: two pairs")
    args = parser.parse_args()
    before = weights.tuned()
    theta = tune(2 if args.quick else args.pairs, args.seed, args.jobs)
    for name, value in theta.items():
        change = value / before[name] if before[name] else math.nan
        print(f"{name}: {before[name]:.3g} -> {value:.3g} ({change:.2f}x)")
    if args.write and not args.quick:
        write(theta, weights.PATH)
        print(f"wrote {weights.PATH}")


if __name__ == "__main__":
    main()
