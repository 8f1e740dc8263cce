"""Complete random legal games per second on one core, every option listed before every
action (issue 18): random legal players alone, then the property tests' fuzzer, whose
random sides also file random battle plans (one action in 12, some of them broken).

Usage: python bench/playout_speed.py [GAMES] [--quick]   (default 100; --quick: CI's run,
20 games, so the script cannot rot unnoticed; its figures mean little)
"""

from __future__ import annotations

import argparse
import time

from floor import bare_start

from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.testing.random_player import playout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=100, help="games of each kind")
    parser.add_argument("--quick", action="store_true", help="CI's run: 20 games of each kind")
    args = parser.parse_args()
    games = 20 if args.quick else args.games
    comp = load_components()
    bare = bare_start()
    print(f"bare interpreter start: {bare * 1000:.0f} ms")
    for plans, what in ((False, "random legal players"), (True, "with random battle plans")):
        actions = 0

        def count(*_):
            nonlocal actions
            actions += 1

        start = time.perf_counter()
        for seed in range(games):
            playout(comp, seed, on_action=count, plans=plans)
        elapsed = time.perf_counter() - start
        print(
            f"{what}: {games} games, {actions} actions in {elapsed:.2f} s: "
            f"{games / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s; "
            f"a game takes {elapsed / games * 1000:.1f} ms, {elapsed / games / bare:.2f}x a "
            "bare start (target 100 games/s)"
        )


if __name__ == "__main__":
    main()
