"""The heuristic player against the random baseline, and against itself (as `seki demo`
plays), on the engine directly: each bot decides from its own view, as from a packet.

Prints the heuristic's win rate over GAMES games against random (sides alternated, seeds
0..GAMES-1), game length (turn files, actions, week reached) and victory types; the same
for DEMO heuristic-vs-heuristic games, without and with battle plans; and the heuristic's
median and 95th-percentile decision time, with its ratio to a bare interpreter start
measured in the same run.

Usage: python bench/bot_strength.py [GAMES] [DEMO]   (defaults 200 and 50; target: the
heuristic wins >= 95 % against random)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections import Counter

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.component_files import load_components
from sekigahara_pbem.rules.vocab import SIDES


def how(result: dict) -> str:
    """The victory type: points (2.2), or the instant victory's reason (2.1)."""
    return result["how"] if result["how"] != "instant" else f"instant: {result['reason']}"


def series(comp, games: int, against: str, plans: bool = False) -> tuple[Counter, Counter, list]:
    """Play `games` games of the heuristic against `against` (random or heuristic); the
    heuristic under test takes ishida in even games and tokugawa in odd ones. With
    `plans` the heuristic players file battle plans."""
    outcomes: Counter = Counter()
    lengths: Counter = Counter()
    times: list[float] = []
    files, actions = [], []
    for i in range(games):
        hero = SIDES[i % 2]
        chosen = {s: "heuristic" if s == hero else against for s in SIDES}
        players = {s: make_player(chosen[s], comp, {}, f"bench-{i}-{s}", plans) for s in SIDES}
        game = play(comp, f"{i:032x}", players)
        if game.refused:
            raise SystemExit(f"game {i}: the engine refused {game.refused[0]}")
        result = game.state["result"]
        mixed = against != "heuristic"
        won = "heuristic" if mixed and result["winner"] == hero else result["winner"]
        outcomes[(won, how(result))] += 1
        lengths[game.state["week"]] += 1
        files.append(game.turn_files)
        actions.append(game.actions)
        times += [t for s in SIDES if chosen[s] == "heuristic" for t in game.seconds.get(s, [])]
    lengths["files"] = statistics.median(files)
    lengths["actions"] = statistics.median(actions)
    return outcomes, lengths, times


def report(title: str, games: int, outcomes: Counter, lengths: Counter) -> None:
    print(f"{title}: {games} games")
    for (winner, kind), n in sorted(outcomes.items(), key=lambda x: -x[1]):
        print(f"  {n:4d}  {winner} wins by {kind}")
    weeks = ", ".join(f"week {w}: {lengths[w]}" for w in range(1, 8) if lengths[w])
    print(f"  week reached: {weeks}")
    print(f"  median length: {lengths['files']:.0f} turn files, {lengths['actions']:.0f} actions")


def bare_start() -> float:
    runs = []
    for _ in range(7):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    demo = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    comp = load_components()
    start = time.perf_counter()
    outcomes, lengths, times = series(comp, games, "random")
    wins = sum(n for (w, _), n in outcomes.items() if w == "heuristic")
    report("heuristic vs random", games, outcomes, lengths)
    print(f"  heuristic win rate: {wins}/{games} = {100 * wins / games:.1f} % (target >= 95 %)")
    d_outcomes, d_lengths, d_times = series(comp, demo, "heuristic")
    report("heuristic vs heuristic (the demo's pairing)", demo, d_outcomes, d_lengths)
    p_outcomes, p_lengths, _ = series(comp, demo, "heuristic", plans=True)
    report("the same with battle plans (seki demo --plans)", demo, p_outcomes, p_lengths)
    elapsed = time.perf_counter() - start
    times = sorted(times + d_times)
    median, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
    bare = bare_start()
    print(
        f"heuristic decision (one turn file) on one core: median {median * 1000:.1f} ms, "
        f"95th percentile {p95 * 1000:.1f} ms over {len(times)}; bare interpreter start "
        f"{bare * 1000:.0f} ms; ratio of the median to it {median / bare:.2f}; "
        f"all {games + 2 * demo} games in {elapsed:.0f} s"
    )


if __name__ == "__main__":
    main()
