"""The search player's rollouts on one core (bot/rollout.py): a sampled full state played
on by the heuristic for both sides over two movement phases, as every round of `hard`
does for each candidate. Their cost bounds how many rounds a decision's budget fits, and
so how far the search can tell its candidates apart (issue 39: a round of four
candidates took 0.8 s when `hard` had 0.5 s a decision).

The states are movement steps of one heuristic game, spread over it; the heuristic
with partial stack moves (normal, the search's own) and without (easy) each play on
from every one.

Usage: python bench/rollout_speed.py [STATES] [--quick]   (default 30; --quick: CI's
run, 3 states, so the script cannot rot unnoticed; its figures mean little)
"""

from __future__ import annotations

import argparse
import time

from floor import bare_start

from sekigahara_pbem.bot import HARD_BUDGET
from sekigahara_pbem.bot.heuristic import HeuristicPlayer
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.rollout import rollout
from sekigahara_pbem.bot.search import HORIZON, WIDTH
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.vocab import MOVEMENT, SIDES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("states", nargs="?", type=int, default=30, help="states rolled out")
    parser.add_argument("--quick", action="store_true", help="CI's run: 3 states")
    args = parser.parse_args()
    wanted = 3 if args.quick else args.states
    comp = load_components()
    seen: list[dict] = []

    def keep(state: dict, _side: str) -> None:
        if state["step"] == MOVEMENT:
            seen.append(state)

    play(comp, "00" * 16, {s: HeuristicPlayer(comp, {}, "rollouts") for s in SIDES}, keep)
    states = seen[:: max(1, len(seen) // wanted)][:wanted]
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


if __name__ == "__main__":
    main()
