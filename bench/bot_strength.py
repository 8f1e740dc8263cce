"""The heuristic player against the random baseline, and against itself (as `seki demo`
plays), and the search player against the heuristic, on the engine directly: each bot
decides from its own view, as from a packet.

Prints the heuristic's win rate over GAMES games against random (sides alternated, seeds
0..GAMES-1), game length (turn files, actions, week reached) and victory types; the same
for DEMO heuristic-vs-heuristic games, without and with battle plans; and the heuristic's
median and 95th-percentile decision time, with its ratio to a bare interpreter start
measured in the same run. With --search N, the search player (thinking --budget seconds
of processor time per decision) plays N games against the heuristic, sides alternated,
and its win rate and decision times are printed the same way. With --baseline N, the
player --hero (a kind of `make_player`; default search) plays the frozen baseline
(bench/baseline_v1: the search player of 29 November 2026) at the same budget, sides
alternated, until Wald's SPRT (--sprt P0 P1, default 0.5 0.6) decides or N games are
played (all N with --fixed): each round prints the win rate, its 95 % Wilson interval
and the test's ratio; at the end, the blunder counters of both (bench/blunders.py) a game
on average (and when stopped by an interrupt, `kill -INT`, over the rounds played). With
--against baseline-heuristic the frozen search player's own heuristic is played instead
(a game takes a second, not minutes: a first look before the real series); with
--against KIND-blind the same kind of player shown no events, so with no belief over the
enemy's blocks (bot/belief.py); with --against KIND@REV the same kind as the bot package
at git revision REV plays it (bench/revision.py): a change against the player before it.

Usage: python bench/bot_strength.py [GAMES] [DEMO] [--search N] [--baseline N] [--hero
KIND] [--against baseline|baseline-heuristic|KIND|KIND-blind|KIND@REV] [--fixed] [--sprt P0 P1]
[--budget SECONDS] [--jobs J] [--first K] [--movement] [--workers 1|2] [--waits FILE]
[--movement-scale X] [--quick] (--movement: the search player searches movement too;
--movement-scale: its movement decisions take up to X budgets; --workers 2: in two
processes, on the wall's clock, with --jobs 1 only; --waits: each turn file's wall
seconds added to FILE; defaults 200, 50, 0, 0, search, baseline, 0.5 0.6, 1.0, 1 and 0;
0 games skip a series; J processes play the search games; the search series takes seeds
K..K+N-1, so a long measurement can be played in parts and its per-game lines added up.
Targets: the heuristic wins >= 95 % against random; the search >= 65 % against the
heuristic over >= 200 games with a median decision of <= 2 s. A search game takes about a
minute of processor time per second of budget.)
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import signal
import statistics
import sys
import time
from collections import Counter

import revision
from baseline_v1 import HeuristicPlayer as FrozenHeuristic
from baseline_v1 import make_baseline
from blunders import Tally, blunder_table
from floor import bare_start

from sekigahara_pbem.bot import KINDS as PLAYERS
from sekigahara_pbem.bot import make_player
from sekigahara_pbem.bot.match import play
from sekigahara_pbem.bot.search import SearchPlayer, Shape
from sekigahara_pbem.protocol.component_files import load_components
from sekigahara_pbem.rules.components import Components
from sekigahara_pbem.rules.vocab import SIDES


def how(result: dict) -> str:
    """The victory type: points (2.2), or the instant victory's reason (2.1)."""
    return result["how"] if result["how"] != "instant" else f"instant: {result['reason']}"


@functools.cache
def components() -> Components:
    """The component set, loaded once per process (the bot's distance tables are kept per
    component set)."""
    return load_components()


BLIND = "-blind"  # a kind of seki's players shown no events (`Blind`)


class Blind:
    """A player shown no events: `play` shows them only to a player that has `observe`,
    so it judges the enemy by its views' counts alone, as every player did before
    bot/belief.py (`--against heuristic-blind`: what the belief is worth)."""

    def __init__(self, player) -> None:  # noqa: ANN001
        self.player = player

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        return self.player.actions(v, offered)

    def close(self) -> None:
        if hasattr(self.player, "close"):
            self.player.close()


def _player(kind: str, comp: Components, seed: str, plans: bool, budget: float, search: dict):  # noqa: ANN202
    """A player of seki's kinds (a search player with the `search` options: movement,
    workers, and the movement budget's scale, `Shape.movement_scale`), or one shown no
    events (KIND-blind), or the frozen baseline (bench/baseline_v1) at `budget`, or the
    baseline's own heuristic ("baseline-heuristic": quick games, for a first look)."""
    search = dict(search)
    scale = search.pop("movement_scale", 1.0)
    if kind == "search" and scale != 1.0:
        return SearchPlayer(comp, {}, seed, budget, Shape(movement_scale=scale), **search)
    name, rev = revision.split(kind)
    if rev is not None:  # a kind of player as an earlier revision of the bot plays it
        return revision.make_player(name, rev, comp, {}, seed, plans, budget, **search)
    if kind.endswith(BLIND):
        return Blind(_player(kind.removesuffix(BLIND), comp, seed, plans, budget, search))
    if kind == "baseline":
        return make_baseline(comp, {}, seed, budget)
    if kind == "baseline-heuristic":
        return FrozenHeuristic(comp, {}, seed, plans)
    return make_player(kind, comp, {}, seed, plans, budget, **search)


def one_game(task: tuple) -> tuple:
    """Game `i` of a series (see `series`): its outcome, length and decision times."""
    i, hero_kind, against, plans, budget, search = task
    comp = components()
    hero = SIDES[i % 2]
    chosen = {s: hero_kind if s == hero else against for s in SIDES}
    players = {s: _player(chosen[s], comp, f"bench-{i}-{s}", plans, budget, search) for s in SIDES}
    tally = Tally(comp)
    game = play(comp, f"{i:032x}", players, on_action=tally.action)
    for player in players.values():
        if hasattr(player, "close"):
            player.close()  # a search player's second process
    counts = tally.finish()
    blunders = (counts[hero], counts[SIDES[1 - i % 2]])  # the player under test's first
    if game.refused:
        raise SystemExit(f"game {i}: the engine refused {game.refused[0]}")
    result = game.state["result"]
    won = result["winner"]
    if against != hero_kind:  # name the player, and the side it played
        won = f"{hero_kind if won == hero else against} ({won})"
    times = [t for s in SIDES if chosen[s] == hero_kind for t in game.seconds.get(s, [])]
    waits = [t for s in SIDES if chosen[s] == hero_kind for t in game.wall.get(s, [])]
    rounds = getattr(players[hero], "searched", [])
    if hero_kind == "search":  # minutes per game: show the way
        # the rounds a movement decision got: a slower or busier machine fits fewer in the
        # same budget, and a search of fewer than two rounds keeps its heuristic's choice
        moved = [n for step, n in rounds if step == "movement"] or [0]
        print(
            f"  game {i}: {hero} {how(result)} for {result['winner']}, median decision "
            f"{1000 * statistics.median(times):.0f} ms, on the wall "
            f"{1000 * statistics.median(waits):.0f} ms (longest {max(waits):.2f} s), "
            f"rounds a movement decision {statistics.median(moved):g}",
            file=sys.stderr,
            flush=True,
        )
    seat = result["winner"] == hero  # the player under test won
    outcome = (won, how(result))
    played = game.state["week"], game.turn_files, game.actions, times, seat, blunders
    return outcome, *played, waits, rounds


def series(
    games: int,
    against: str,
    plans: bool = False,
    hero_kind: str = "heuristic",
    budget: float = 1.0,
    jobs: int = 1,
    first: int = 0,
    blunders: list | None = None,
    search: dict | None = None,
    waits: list | None = None,
    rounds: list | None = None,
) -> tuple[Counter, Counter, list]:
    """Play `games` games of `hero_kind` (heuristic or search) against `against` (random
    or heuristic); the player under test takes ishida in even games and tokugawa in odd
    ones (lengths["seat"] counts its wins). With `plans` the heuristic players file
    battle plans; `budget` is the search player's seconds per decision; `jobs` processes
    play at once (decision times are each process's own clock); seeds start at `first`.
    Decision times are the player under test's (both players' when they are of one
    kind). Each game's blunder counts (the player under test's, its opponent's) are
    added to `blunders` if given, its wall-clock turn file times to `waits` and a search
    player's (step, rounds) per decision searched to `rounds`; `search` holds the search
    players' options (movement, workers)."""
    outcomes: Counter = Counter()
    lengths: Counter = Counter()
    times: list[float] = []
    files, actions = [], []
    search = search or {}
    tasks = [(i, hero_kind, against, plans, budget, search) for i in range(first, first + games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs, initializer=_deaf) as pool:
            played = pool.map(one_game, tasks, chunksize=1)
    else:
        played = [one_game(t) for t in tasks]
    for outcome, week, n_files, n_actions, seconds, seat, counted, waited, searched in played:
        if blunders is not None:
            blunders.append(counted)
        if waits is not None:
            waits += waited
        if rounds is not None:
            rounds += searched
        lengths["seat"] += seat
        outcomes[outcome] += 1
        lengths[week] += 1
        files.append(n_files)
        actions.append(n_actions)
        times += seconds
    lengths["files"] = statistics.median(files)
    lengths["actions"] = statistics.median(actions)
    return outcomes, lengths, times


def _deaf() -> None:
    """A pool's process leaves an interrupt to the series that started it (a process of
    the pool that died of one would leave its game unplayed and the series waiting)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % with z = 1.96): unlike the normal
    approximation it stays within 0..1 and holds for rates near either end."""
    if not games:
        return 0.0, 1.0
    rate, spread = wins / games, z * z / games
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / games + spread / (4 * games)) / (1 + spread)
    return centre - half, centre + half


def sprt(wins: int, losses: int, p0: float, p1: float, error: float = 0.05) -> tuple[float, str]:
    """Wald's sequential probability ratio test of a win rate, as engine testers run it
    game by game: H0 (the rate is p0) against H1 (it is p1), each error at most `error`.
    The log-likelihood ratio, and the verdict once it leaves its bounds (a game of
    Sekigahara always has a winner, 2.1-2.2: there are no draws to count)."""
    llr = wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))
    lower, upper = math.log(error / (1 - error)), math.log((1 - error) / error)
    if llr >= upper:
        return llr, f"H1 accepted: the rate is {p1:g} rather than {p0:g}"
    if llr <= lower:
        return llr, f"H0 accepted: the rate is {p0:g} rather than {p1:g}"
    return llr, f"undecided (bounds {lower:.2f}, {upper:.2f})"


def against_baseline(args: argparse.Namespace) -> None:
    """`args.hero` against the frozen baseline at the same budget, sides alternated, in
    rounds of 2 * jobs games until the SPRT decides or `args.baseline` games are played;
    the win rate with its 95 % interval after each round."""
    p0, p1 = args.sprt
    wins = played = 0
    times: list[float] = []
    counted: list = []
    waits: list[float] = []
    rounds: list[tuple[str, int]] = []
    verdict = ""
    # heard even where the shell started the series in the background, which ignores it
    signal.signal(signal.SIGINT, signal.default_int_handler)
    while played < args.baseline and (args.fixed or not verdict.startswith("H")):
        size = min(2 * args.jobs, args.baseline - played)
        try:
            out, lengths, seconds = series(
                size, args.against, hero_kind=args.hero, budget=args.budget, jobs=args.jobs,
                first=args.first + played, blunders=counted, search=_search_options(args),
                waits=waits, rounds=rounds,
            )  # fmt: skip
        except KeyboardInterrupt:  # a long series stopped (kill -INT): what it has played
            print(f"stopped: the round from game {args.first + played} is not counted")
            break
        wins, played, times = wins + lengths["seat"], played + size, times + seconds
        low, high = wilson(wins, played)
        llr, verdict = sprt(wins, played - wins, p0, p1)
        print(
            f"{args.hero} vs {args.against} (budget {args.budget:g} s): {wins}/{played} "
            f"= {100 * wins / played:.1f} %, 95 % interval {100 * low:.1f}-{100 * high:.1f} %; "
            f"SPRT LLR {llr:.2f}: {verdict}",
            flush=True,
        )
    print(blunder_table(args.hero, args.against, counted))
    if times:
        print(timing(args.hero, times, bare_start()))
        print(wall_timing(args.hero, waits))
    if args.waits:
        with open(args.waits, "a", encoding="utf-8") as out:  # a series in parts adds up
            out.writelines(f"{t:.4f}\n" for t in waits)
    if rounds:
        print(rounds_table(rounds))


def _search_options(args: argparse.Namespace) -> dict:
    """The search player's options the flags give (--movement, --workers,
    --movement-scale)."""
    if args.workers > 1 and args.jobs > 1:
        raise SystemExit("--workers 2 needs --jobs 1: a pool's processes cannot start their own")
    return {
        "movement": args.movement,
        "workers": args.workers,
        "movement_scale": args.movement_scale,
    }


def wall_timing(who: str, waits: list[float]) -> str:
    """A turn file's time on the wall's clock: what a person playing it waits."""
    waits = sorted(waits)
    median, p95 = statistics.median(waits), waits[int(0.95 * (len(waits) - 1))]
    return (
        f"{who} turn file on the wall's clock: median {median * 1000:.0f} ms, 95th "
        f"percentile {p95 * 1000:.0f} ms, longest {waits[-1] * 1000:.0f} ms over {len(waits)}"
    )


def rounds_table(rounds: list[tuple[str, int]]) -> str:
    """Rounds per decision searched, movement and the rest apart (the median, the mean
    and the share with fewer than two, which cannot overrule the heuristic)."""
    lines = []
    for name, picked in (
        ("movement", [n for step, n in rounds if step == "movement"]),
        ("other", [n for step, n in rounds if step != "movement"]),
    ):
        if picked:
            short = sum(n < 2 for n in picked) / len(picked)
            lines.append(
                f"rounds per {name} decision searched: median {statistics.median(picked):g}, "
                f"mean {statistics.mean(picked):.2f}, fewer than two {100 * short:.0f} % "
                f"over {len(picked)}"
            )
    return "\n".join(lines)


def report(title: str, games: int, outcomes: Counter, lengths: Counter) -> None:
    print(f"{title}: {games} games")
    for (winner, kind), n in sorted(outcomes.items(), key=lambda x: -x[1]):
        print(f"  {n:4d}  {winner} wins by {kind}")
    weeks = ", ".join(f"week {w}: {lengths[w]}" for w in range(1, 8) if lengths[w])
    print(f"  week reached: {weeks}")
    print(f"  median length: {lengths['files']:.0f} turn files, {lengths['actions']:.0f} actions")


def timing(who: str, times: list[float], bare: float) -> str:
    times = sorted(times)
    median, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
    return (
        f"{who} decision (one turn file) on one core: median {median * 1000:.1f} ms, "
        f"95th percentile {p95 * 1000:.1f} ms, longest {times[-1] * 1000:.0f} ms over "
        f"{len(times)}; bare interpreter start {bare * 1000:.0f} ms; ratio of the median "
        f"to it {median / bare:.2f}"
    )


def _opponent(kind: str) -> str:
    """An --against value: one of the named opponents, or KIND@REV (unpacked now, before
    any game's process starts: revision.unpack)."""
    name, rev = revision.split(kind)
    if rev is not None and name in PLAYERS:
        revision.unpack(rev)
        return kind
    if kind in ("baseline", "baseline-heuristic", *PLAYERS, *(k + BLIND for k in PLAYERS)):
        return kind
    raise argparse.ArgumentTypeError(f"no such opponent: {kind}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="heuristic vs random")
    parser.add_argument("demo", nargs="?", type=int, default=50, help="heuristic vs itself")
    parser.add_argument("--search", type=int, default=0, help="search vs heuristic games")
    parser.add_argument("--budget", type=float, default=1.0, help="search seconds/decision")
    parser.add_argument("--jobs", type=int, default=1, help="search games played at once")
    parser.add_argument("--first", type=int, default=0, help="the search series' first seed")
    parser.add_argument(
        "--baseline", type=int, default=0, help="games against the frozen baseline, at most"
    )
    parser.add_argument("--hero", default="search", help="the kind played against it")
    parser.add_argument(
        "--movement", action="store_true", help="the search player searches movement too"
    )
    parser.add_argument(
        "--waits", help="add each turn file's wall-clock seconds to this file, one a line"
    )
    parser.add_argument(
        "--workers", type=int, default=1, choices=(1, 2),
        help="processes per search player (2: a second one plays half its rounds; needs "
        "--jobs 1)",
    )  # fmt: skip
    parser.add_argument(
        "--movement-scale", type=float, default=1.0,
        help="budgets a search player's movement decision (and a turn file of movement) "
        "may take (bot/search.Shape.movement_scale)",
    )  # fmt: skip
    parser.add_argument(
        "--fixed", action="store_true",
        help="play all --baseline games whatever the SPRT says (a fixed series)",
    )  # fmt: skip
    parser.add_argument(
        "--against", default="baseline", type=_opponent,
        help="the frozen search player (default), its heuristic alone (baseline-heuristic: "
        "quick games), a kind of seki's players (a level against the one below), KIND-blind "
        "or KIND@REV: that kind as the bot package at git revision REV plays it (a change "
        "against the player before it)",
    )  # fmt: skip
    parser.add_argument(
        "--sprt", type=float, nargs=2, default=(0.5, 0.6), metavar=("P0", "P1"),
        help="the SPRT's two win rates (default 0.5 0.6)",
    )  # fmt: skip
    parser.add_argument(
        "--quick",
        action="store_true",
        help="CI's run: a game or two of every series, so the script cannot rot unnoticed "
        "(its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.quick:
        args.games, args.demo, args.search, args.budget = 2, 1, 1, 0.05
        args.baseline, args.workers, args.movement = 1, 2, True  # the parallel search too
    start = time.perf_counter()
    times: list[float] = []
    if args.games:
        outcomes, lengths, times = series(args.games, "random")
        wins = sum(n for (w, _), n in outcomes.items() if w.startswith("heuristic "))
        report("heuristic vs random", args.games, outcomes, lengths)
        rate = 100 * wins / args.games
        print(f"  heuristic win rate: {wins}/{args.games} = {rate:.1f} % (target >= 95 %)")
    if args.demo:
        d_outcomes, d_lengths, d_times = series(args.demo, "heuristic")
        report("heuristic vs heuristic (the demo's pairing)", args.demo, d_outcomes, d_lengths)
        p_outcomes, p_lengths, _ = series(args.demo, "heuristic", plans=True)
        report("the same with battle plans (seki demo --plans)", args.demo, p_outcomes, p_lengths)
        times += d_times
    s_times: list[float] = []
    if args.search:
        s_out, s_len, s_times = series(
            args.search,
            "heuristic",
            hero_kind="search",
            budget=args.budget,
            jobs=args.jobs,
            first=args.first,
            search=_search_options(args),
        )
        title = f"search (budget {args.budget:g} s per decision) vs heuristic"
        report(title, args.search, s_out, s_len)
        wins = sum(n for (w, _), n in s_out.items() if w.startswith("search "))
        rate = 100 * wins / args.search
        print(f"  search win rate: {wins}/{args.search} = {rate:.1f} % (target >= 65 %)")
        _, h_len, _ = series(args.search, "heuristic", first=args.first)  # same seeds, seats
        won = h_len["seat"]
        print(
            f"  the heuristic in the search's seat (same seeds) wins {won}/{args.search} = "
            f"{100 * won / args.search:.1f} %"
        )
    if args.baseline:
        against_baseline(args)
    elapsed = time.perf_counter() - start
    bare = bare_start()
    if times:
        print(timing("heuristic", times, bare))
    if s_times:
        print(timing("search", s_times, bare) + " (target: median <= 2 s)")
    total = args.games + 2 * args.demo + args.search + args.baseline
    print(f"all {total} games at most in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
