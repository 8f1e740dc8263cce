"""Complete random legal games per second on one core, and actions per second.

Usage: python bench/playout_speed.py [GAMES]   (default 50)
"""

from __future__ import annotations

import sys
import time

from sekigahara_pbem.component_files import load_components
from sekigahara_pbem.selfplay import playout


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    comp = load_components()
    actions = 0

    def count(*_):
        nonlocal actions
        actions += 1

    start = time.perf_counter()
    for seed in range(games):
        playout(comp, seed, on_step=count)
    elapsed = time.perf_counter() - start
    print(
        f"{games} games, {actions} actions in {elapsed:.2f} s: "
        f"{games / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s "
        "(random legal players, options listed before every action)"
    )


if __name__ == "__main__":
    main()
