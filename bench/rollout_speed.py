"""The search player's rollouts on one core (bot/rollout.py): a sampled full state played
on by the heuristic for both sides over two movement phases, as every round of `hard`
does for each candidate. Their cost bounds how many rounds a decision's budget fits, and
so how far the search can tell its candidates apart (issue 39: a round of four
candidates took 0.8 s when `hard` had 0.5 s a decision).

The states are movement steps of one heuristic game, spread over it; the heuristic
with partial stack moves (normal, the search's own) and without (easy) each play on
from every one. Then the search player answers DECISIONS turn files of that game (its
decisions spread over it, movement searched too) at --budget seconds a decision, in one
process (processor time, as `hard` searched until issue 39) and in two (the wall's
clock, a second process playing the odd rounds), the two interleaved file by file so a
busy machine weighs on both alike: the rounds each decision searched, movement and the
rest apart, and each file's time on the wall's clock (median, 95th percentile, longest).

Usage: python bench/rollout_speed.py [STATES] [--decisions N] [--budget SECONDS]
[--quick]   (defaults 30, 40 and hard's budget; --quick: CI's run, 3 states and 4
decisions at 0.05 s, so the script cannot rot unnoticed; its figures mean little)
"""

from __future__ import annotations

import argparse
import statistics
import time

from floor import bare_start

from sekigahara_pbem.bot import HARD_BUDGET
from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.rollout import rollout
from sekigahara_pbem.bot.search import HORIZON, WIDTH, SearchPlayer
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.components import Components
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import MOVEMENT, SIDES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("states", nargs="?", type=int, default=30, help="states rolled out")
    parser.add_argument("--decisions", type=int, default=40, help="turn files searched")
    parser.add_argument("--budget", type=float, default=HARD_BUDGET, help="seconds a decision")
    parser.add_argument("--quick", action="store_true", help="CI's run: 3 states")
    args = parser.parse_args()
    if args.quick:
        args.states, args.decisions, args.budget = 3, 4, 0.05
    comp = load_components()
    decisions: list[tuple[dict, str]] = []
    play(
        comp, "00" * 16, {s: HeuristicPlayer(comp, {}, "rollouts") for s in SIDES},
        lambda state, side: decisions.append((state, side)),
    )  # fmt: skip
    seen = [state for state, _ in decisions if state["step"] == MOVEMENT]
    states = seen[:: max(1, len(seen) // args.states)][: args.states]
    bare = bare_start()
    print(f"bare interpreter start: {bare * 1000:.0f} ms")
    for partial, who in ((True, "normal (the search's policy)"), (False, "easy")):
        policy = HeuristicPlayer(comp, {}, "rollouts", partial=partial)
        start = time.process_time()
        for state in states:
            rollout(comp, state, policy, HORIZON)
        each = (time.process_time() - start) / len(states)
        rounds = HARD_BUDGET / (WIDTH * each)
        print(
            f"rollouts by {who}: {len(states)} of {HORIZON} movement phases, "
            f"{each * 1000:.1f} ms each, {each / bare:.2f}x a bare start; "
            f"rounds of {WIDTH} candidates in hard's {HARD_BUDGET:g} s: {rounds:.1f}"
        )
    picked = decisions[:: max(1, len(decisions) // args.decisions)][: args.decisions]
    rounds_per_decision(comp, picked, args.budget)


def rounds_per_decision(comp: Components, picked: list[tuple[dict, str]], budget: float) -> None:
    """The search player's rounds a decision and wall time a turn file at `budget`, in
    one process and in two, interleaved file by file (module docstring)."""
    players = {
        workers: SearchPlayer(comp, {}, "rounds", budget=budget, movement=True, workers=workers)
        for workers in (1, 2)
    }
    waits: dict[int, list[float]] = {1: [], 2: []}
    for state, side in picked:
        v, offered = view(state, comp, side), options(state, comp, side)
        for workers, player in players.items():
            start = time.monotonic()
            player.actions(v, offered)
            waits[workers].append(time.monotonic() - start)
    for workers, player in players.items():
        player.close()
        how = "one process, processor time" if workers == 1 else "two processes, wall clock"
        print(f"search at {budget:g} s a decision, {how}:")
        for name, movement in (("movement", True), ("other", False)):
            counts = [n for step, n in player.searched if (step == MOVEMENT) == movement]
            if counts:
                print(
                    f"  rounds per {name} decision: mean {statistics.mean(counts):.2f}, "
                    f"median {statistics.median(counts):g}, fewer than two "
                    f"{100 * sum(n < 2 for n in counts) / len(counts):.0f} % over {len(counts)}"
                )
        times = sorted(waits[workers])
        print(
            f"  turn file on the wall's clock: median {statistics.median(times):.2f} s, 95th "
            f"percentile {times[int(0.95 * (len(times) - 1))]:.2f} s, longest {times[-1]:.2f} s "
            f"over {len(times)}"
        )


if __name__ == "__main__":
    main()
