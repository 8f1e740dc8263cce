"""Two-party games (issue 14): mails per player per game week, record sizes, and the time
to take in one received record as a whole process (`seki play DIR -r FILE`), with its
ratio to a bare interpreter start measured in the same run.

Usage: python bench/two_party.py [GAMES] [--quick]   (default 3; heuristic bots, through
the files. --quick: CI's run, the first QUICK records of one game, so the script cannot
rot unnoticed; its figures mean little)

A mail is one record: in a two-party game every record goes to the other player. A record
counts for the week its side's copy was in when it was written. Every eighth record of the
first game is taken in by a `seki` process instead of in memory, to time the whole path:
start-up, signature, chain, opening the side's sealed knowledge, retracing the entries,
binding its draws, sealing its knowledge again.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from floor import bare_start

from sekigahara_pbem.bot import make_player
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.rules.vocab import ISHIDA, SIDES, other
from sekigahara_pbem.twoparty import files
from sekigahara_pbem.twoparty.match import player_chooser
from sekigahara_pbem.twoparty.side import Side

NOW = "2026-11-23T06:00:00Z"

EVERY = 8  # every EVERY-th record of the first game is taken in by a whole process
QUICK = 26  # CI's run: the records of one game played to here (three timed by a process)


def game(root: Path, seed: int, timed: bool, last: int = 5000) -> dict:
    """Game `seed` played to its end or to record `last`: its mails per (week, side), its
    record sizes, and (if `timed`) the seconds of the records taken in by a process."""
    comp = load_components()
    keys = {s: generate(s) for s in SIDES}
    text = files.make_game(
        f"bench-{seed}", components_hash(), {}, {s: k.public for s, k in keys.items()}, keys[ISHIDA]
    )
    game = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (root / s).mkdir(parents=True)
        (root / s / "game.txt").write_text(text)
        write_identity(root / f"home-{s}", keys[s])
        sides[s] = Side(root / s, game, keys[s], comp)
    choosers = {s: player_chooser(make_player("heuristic", comp, {}, f"{seed}-{s}")) for s in SIDES}
    joins = {s: sides[s].join(NOW) for s in SIDES}
    for s in SIDES:
        sides[other(s)].receive(joins[s], "join", NOW)
    mails: Counter = Counter()
    sizes, process = [], []
    turn = ISHIDA
    for n in range(2, last):
        if sides[turn].result() is not None:
            break
        week = sides[turn].load().public["week"]
        text = sides[turn].turn(choosers[turn], NOW)
        mails[(week, turn)] += 1
        sizes.append(len(text.encode()))
        reader = sides[other(turn)]
        if timed and n % EVERY == 0:
            sent = root / f"sent-{n}.txt"
            sent.write_text(text)
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "sekigahara_pbem", "play", str(reader.root),
                 "--key", other(turn), "-r", str(sent)],
                capture_output=True, text=True, stdin=subprocess.DEVNULL,
                env={"SEKI_HOME": str(root / f"home-{other(turn)}"), "PATH": "/usr/bin:/bin"},
            )  # fmt: skip
            process.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"seki play failed: {done.stderr}")
        else:
            reader.receive(text, "mail", NOW)
        turn = other(turn)
    return {"mails": mails, "sizes": sizes, "process": process}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=3, help="games played")
    parser.add_argument("--quick", action="store_true", help=f"CI's run: {QUICK} records")
    args = parser.parse_args()
    games, last = (1, QUICK) if args.quick else (args.games, 5000)
    bare = bare_start()
    per_week: list[int] = []
    sizes: list[int] = []
    process: list[float] = []
    for seed in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            found = game(Path(tmp), seed, timed=seed == 0, last=last)
        per_week += list(found["mails"].values())
        sizes += found["sizes"]
        process += found["process"]
    took = statistics.median(process)
    print(f"bare interpreter start: {1000 * bare:.0f} ms")
    print(
        f"mails per player per week over {games} games: mean {statistics.mean(per_week):.1f}, "
        f"largest {max(per_week)} (goal: 5)"
    )
    print(f"record size: median {statistics.median(sizes):.0f} B, largest {max(sizes)} B")
    print(
        f"taking in one record, whole process ({len(process)} timed): median {1000 * took:.0f} ms "
        f"= {took / bare:.1f}x a bare start, slowest {1000 * max(process):.0f} ms (goal: 500 ms)"
    )


if __name__ == "__main__":
    main()
