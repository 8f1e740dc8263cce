"""Mails per player per game week, without and with battle plans (issue 6).

Usage: python bench/mail_count.py [--games N] [--seed S] [--demo K] [--quick]

(--quick: CI's run, 2 engine games per set and the first QUICK_STEPS turn files of one
`seki demo` game per set, so the script cannot rot unnoticed; its figures mean little.)

Three sets of seeded bot games, each played without and with battle plans:

- **demo bots** (engine): the `seki demo` players (a random legal option for every
  decision) on the rules engine alone. With plans, each files the demo's STANDING_ORDERS
  with its first answer of every week.
- **campaign** (engine): the same players, but each week's plan is drawn up from the
  side's own view, and redrawn just before the side ends its movement phase (before its
  combats): locations where it meets at least twice its number are not fought for with
  cards (`deploy` only leaders without a card, then `finish`).
- **seki demo** (files): K whole `seki demo` games through the real signed turn files,
  referee, packets, reveal and verify (`run_demo(bots=Bots(plans=...))`), counted from the records.

How a mail is counted. A mail is one turn file. A file carries a side's actions in order
while the decision stays that side's (referee/steps.turn_step, by way of
referee/records/turn.admit), so a side's consecutive decisions go into one file when
nothing the side must first see happens between them.
In the order the game was played, a side's mail-answered decision (a plan filing counts
as one) starts a new mail unless it continues the side's open run; a run is closed by:

1. a decision answered by the other side, by mail or by its plan (an answer it must see);
2. a card drawn by the side (a `draw` event: it must see its new hand), which also
   covers the Reinforcement Step's draws after the half-hand discard;
3. sealed bids revealed (a `bids` event: the winner must see that it won before it
   chooses the first player).

The side's own plan answers and the engine's forced steps do not close a run. A mail
counts for the game week in which its first decision was made. For `seki demo`, where a
bot sends one action per file, the raw number of turn files is printed too. Figures are
over every (game, week, side): the mean and the largest number of mails a player sent in
one week.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from sekigahara_pbem.protocol import chain
from sekigahara_pbem.protocol import game as games
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee.demo import STANDING_ORDERS, Bots, run_demo
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.components import Components
from sekigahara_pbem.rules.cycle.setup import setup
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.options import options
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.rules.vocab import SIDES, other

MAX_ACTIONS = 20_000
QUICK_STEPS = 40  # turn files of each `seki demo` game in CI's run


class Mails:
    """Mails per (side, week), counted as the module docstring says."""

    def __init__(self) -> None:
        self.count: Counter = Counter()
        self.weeks: set[int] = set()
        self.open = dict.fromkeys(SIDES, False)

    def answer(self, side: str, week: int) -> None:
        self.weeks.add(week)
        if not self.open[side]:
            self.count[side, week] += 1
            self.open[side] = True
        self.open[other(side)] = False

    def saw(self, events: list) -> None:
        for e in events:
            if e["type"] == "by_plan":
                self.open[other(e["side"])] = False
            elif e["type"] == "draw":
                self.open[e["side"]] = False
            elif e["type"] == "bids":
                self.open = dict.fromkeys(SIDES, False)

    def per_week(self) -> list[int]:
        return [self.count[s, w] for w in sorted(self.weeks) for s in SIDES]


def campaign_orders(v: dict) -> dict:
    """STANDING_ORDERS, with no cards spent where the side is outnumbered two to one."""
    side = v["own"]["side"]
    hopeless = {
        loc: {"deploy": [{"card": "none"}], "stop": "finish"}
        for loc, n in v["stacks"].items()
        if 0 < 2 * n[side] <= n[other(side)]
    }
    return {**STANDING_ORDERS, "at": hopeless} if hopeless else dict(STANDING_ORDERS)


Orders = Callable[[dict], dict]  # a side's view -> its battle plan


def planned(state: dict, comp: Components, side: str, plan: dict) -> dict | None:
    """The answer `plan` gives to `side`'s decision now (None: the plan would ask)."""
    _, events = apply(state, comp, side, {"type": "plan", "plan": plan})
    return next((e["private"][side]["action"] for e in events if e["type"] == "by_plan"), None)


def engine_game(
    comp: Components, seed: int, orders: Orders | None, by_plan: bool, refile: bool
) -> Mails:
    """One seeded game of the bots. With `orders`, each side draws up a plan with its first
    answer of every week (and, with `refile`, again before it ends its movement phase),
    and its combat decisions follow it: filed as a battle plan (`by_plan`), or answered
    by mail one decision at a time. What no plan covers is a random legal option."""
    state, _ = setup(comp, f"{seed:032x}")
    chooser = rng.new(f"{seed + 10**6:032x}")
    mails = Mails()
    current: dict[str, dict] = {}
    drawn_up: dict[str, int] = {}

    def act(side: str, action: dict) -> None:
        nonlocal state
        week = state["week"]
        state, events = apply(state, comp, side, action)
        mails.answer(side, week)
        mails.saw(events)

    def draw_up(side: str) -> None:
        current[side] = orders(view(state, comp, side))
        if by_plan:
            act(side, {"type": "plan", "plan": current[side]})

    for _ in range(MAX_ACTIONS):
        decisions = pending(state)
        if not decisions:
            break
        side = decisions[rng.below(chooser, len(decisions))]["side"]
        if orders is not None and drawn_up.get(side) != state["week"]:
            drawn_up[side] = state["week"]
            draw_up(side)
            continue  # a filed plan may have answered the decision itself
        action = None
        if orders is not None and not by_plan and state["step"] == "combat":
            action = planned(state, comp, side, current[side])
        if action is None:
            acts = options(state, comp, side)
            action = acts[rng.below(chooser, len(acts))]
        if refile and action["type"] == "end_movement":
            draw_up(side)  # before its combats; a filed plan rides in the movement file
        act(side, action)
    return mails


def demo_game(
    root: Path, seed: str, plans: bool, steps: int | None = None
) -> tuple[Mails, Counter]:
    """A whole `seki demo` game (or its first `steps` turn files); its mails counted from
    the records, and its raw turn files per (side, week)."""
    whole = steps is None
    result = run_demo(
        root, seed, "2024-01-01T00:00:00Z", 5000 if whole else steps, Bots(plans=plans)
    )
    if result.refused or (whole and result.result is None):
        raise SystemExit(f"demo {seed} did not finish cleanly: {result.refused[:1]}")
    gd = GameDir(result.game_dir)
    definition = games.load(gd)
    mails, files = Mails(), Counter()
    week = 1
    for seq in range(2, gd.last_seq() + 1):
        body = chain.read_record(gd, definition, seq).body
        for item in body["inputs"]:
            side = Path(item["file"]).stem.split("-", 1)[1]
            mails.answer(side, week)
            files[side, week] += 1
        mails.saw(body["events"])
        week = max([week] + [e["week"] for e in body["events"] if e["type"] == "week"])
    return mails, files


def figures(counts: list[int]) -> str:
    return f"mean {statistics.mean(counts):5.2f}  max {max(counts):3d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="engine games per set")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first engine game")
    parser.add_argument("--demo", type=int, default=2, help="whole `seki demo` games per set")
    parser.add_argument(
        "--quick", action="store_true",
        help=f"CI's run: 2 engine games, {QUICK_STEPS} turn files of one demo game, per set",
    )  # fmt: skip
    args = parser.parse_args()
    steps = None
    if args.quick:
        args.games, args.demo, steps = 2, 1, QUICK_STEPS
    comp = load_components()
    seeds = range(args.seed, args.seed + args.games)
    print("mails per player per game week (mean and max over every game, week and side)")
    print(f"{'':28}{'without plans':>24}{'with plans':>24}")
    sets = {
        "demo bots (engine)": ((None, False, False), (lambda v: STANDING_ORDERS, True, False)),
        "campaign (engine)": ((campaign_orders, False, True), (campaign_orders, True, True)),
    }
    for label, variants in sets.items():
        rows = []
        for orders, by_plan, refile in variants:
            games_ = [engine_game(comp, s, orders, by_plan, refile) for s in seeds]
            rows.append(figures([n for g in games_ for n in g.per_week()]))
        print(f"{label + f', {args.games} games':28}{rows[0]:>24}{rows[1]:>24}")
    if args.demo:
        mails_rows, file_rows = [], []
        with tempfile.TemporaryDirectory(prefix="seki-mails-") as tmp:
            for plans in (False, True):
                mails, files = [], []
                for k in range(args.demo):
                    root = Path(tmp) / f"{plans}-{k}"
                    counted, raw = demo_game(root, f"mails-{k}", plans, steps)
                    mails += counted.per_week()
                    files += [raw[s, w] for w in sorted(counted.weeks) for s in SIDES]
                mails_rows.append(figures(mails))
                file_rows.append(figures(files))
        label = f"seki demo, {args.demo} games"
        print(f"{label:28}{mails_rows[0]:>24}{mails_rows[1]:>24}")
        print(f"{'  (raw turn files)':28}{file_rows[0]:>24}{file_rows[1]:>24}")


if __name__ == "__main__":
    main()
