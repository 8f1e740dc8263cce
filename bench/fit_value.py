"""Fits the search's evaluation (bot/rollout.py `value`, its weights in bot/weights.toml,
[rollout]) to games' outcomes (issue 39: "an evaluation whose weights are fitted to
self-play outcomes rather than set by hand").

The heuristic plays itself (it is the search's rollout policy, so these are the states a
rollout ends in); at the start of every movement phase (where a rollout stops), each
side's `rollout.counted` is noted with whether that side went on to win. A logistic model
of the win on those counts (no constant: the two sides' rows mirror each other) gives
each count's weight; divided by the point difference's own weight, they are points per
unit, the scale `value` and the search's thresholds are in. The games' two halves are
fitted apart too, so the spread of each weight shows.

Usage: python bench/fit_value.py [GAMES] [--first SEED] [--jobs J] [--write] [--quick]
(default 1,000 games from seed 30000 on two processes; --write: the fitted MATERIAL,
LEADER and CARD into weights.toml; GUARD stays as set by hand, see its comment there;
--quick: CI's run, two games, so the script cannot rot unnoticed: its figures mean
nothing). A fit is a candidate: bench/bot_strength.py says whether the search plays
better with it.
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool

from tune import write

from sekigahara_pbem.bot import weights
from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.rollout import Counted, counted
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.state_types import State
from sekigahara_pbem.rules.vocab import MOVEMENT, SIDES

FITTED = ("MATERIAL", "LEADER", "CARD")  # written by --write; GUARD stays as set by hand
RIDGE = 1.0  # a weak prior towards zero: a fit of a few games stays finite
Row = tuple[int, Counted]  # (1 if the side won, else 0; its counts)


def game(seed: int) -> list[Row]:
    """One heuristic game's rows: each side's counts at the start of every movement phase."""
    comp = load_components()
    rows: list[tuple[str, Counted]] = []
    begun: set[tuple] = set()

    def noted(state: State, side: str) -> None:
        phase = (state["week"], state["turn"], state["active"])
        if state["step"] == MOVEMENT and phase not in begun:
            begun.add(phase)
            rows.extend((s, counted(comp, state, s)) for s in SIDES)

    players = {s: HeuristicPlayer(comp, {}, f"fit-{seed}-{s}") for s in SIDES}
    winner = play(comp, f"{seed:032x}", players, on_decision=noted).state["result"]["winner"]
    return [(int(s == winner), c) for s, c in rows]


def fit(rows: list[Row]) -> list[float]:
    """The logistic model's weights, one per count, by Newton's method (the log-likelihood
    is concave: a few steps reach its top)."""
    n = len(Counted._fields)
    w = [0.0] * n
    for _ in range(50):
        grad = [-RIDGE * wi for wi in w]
        hess = [[RIDGE * (i == j) for j in range(n)] for i in range(n)]
        for won, x in rows:
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            for i in range(n):
                grad[i] += (won - p) * x[i]
                for j in range(n):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(map(abs, step)) < 1e-9:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting (a is positive
    definite here: the ridge sees to it)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(n):
            if r != i:
                factor = m[r][i] / m[i][i]
                m[r] = [x - factor * y for x, y in zip(m[r], m[i], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def in_points(w: list[float]) -> dict[str, float]:
    """The fitted weights as rollout's, in points per unit: each count's weight over the
    point difference's own; GUARD is subtracted (`value`), so it is minus its count's."""
    scaled = dict(zip(Counted._fields, (wi / w[0] for wi in w), strict=True))
    return {
        "MATERIAL": scaled["mon"],
        "LEADER": scaled["leaders"],
        "CARD": scaled["cards"],
        "GUARD": -scaled["unguarded"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=1000, help="games to play")
    parser.add_argument("--first", type=int, default=30000, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=2, help="games played at a time")
    parser.add_argument("--write", action="store_true", help="write the fitted weights")
    parser.add_argument("--quick", action="store_true", help="CI's run: two games")
    args = parser.parse_args()
    games = 2 if args.quick else args.games
    start = time.monotonic()
    with Pool(args.jobs) as pool:
        played = pool.map(game, range(args.first, args.first + games))
    rows = [row for rows in played for row in rows]
    print(f"{len(rows)} rows from {games} games in {time.monotonic() - start:.0f} s")
    half = len(played) // 2
    fits = {
        "all": in_points(fit(rows)),
        "first half": in_points(fit([r for rows in played[:half] for r in rows])),
        "second half": in_points(fit([r for rows in played[half:] for r in rows])),
    }
    before = weights.load()
    print("points per unit, now: " + _shown({n: before[f"rollout.{n}"] for n in fits["all"]}))
    for label, w in fits.items():
        print(f"  fitted, {label}: {_shown(w)}")
    if args.write and not args.quick:
        write({f"rollout.{n}": fits["all"][n] for n in FITTED}, weights.PATH)
        print(f"wrote {weights.PATH} ({', '.join(FITTED)}; GUARD as it was)")


def _shown(w: dict[str, float]) -> str:
    return ", ".join(f"{name} {value:.3g}" for name, value in w.items())


if __name__ == "__main__":
    main()
