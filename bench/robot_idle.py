"""The referee's mail robot serving many games from one spool: the time and peak memory of
one idle pass (`seki referee run` as cron starts it, with an empty mailbox and nothing
new in any game), with its ratio to a bare interpreter start measured in the same run.

Usage: python bench/robot_idle.py [GAMES] [TURNS] [--quick]   (default 200 games, each
started and played TURNS turn files in, default 6; target, issue 18: one idle pass <= 5 s
and <= 200 MB. --quick: CI's run, 3 games 2 turn files in and one idle pass, so the script
cannot rot unnoticed; its figures mean little)

The games are made in process (a few minutes for 200); the first pass queues their
invitations, packets and reminders, and the passes after it are idle. Peak memory is the
largest resident set of the robot's processes (`resource`: POSIX, like cron).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from floor import bare_start, scratch

from sekigahara_pbem.commands.common import utc_now
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import chain, game, joins
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.rules.vocab import SIDES


def make_game(root: Path, n: int, ids: dict, turns: int) -> Path:
    """Game `n`, joined, set up and `turns` turn files in, with mail addresses."""
    gd = GameDir(root / f"g{n:03d}")
    addresses = {s: f"{s}-{n}@players.invalid" for s in SIDES}
    definition = game.create(
        gd.root, f"g{n:03d}", ids["referee"], {s: ids[s].public for s in SIDES},
        components_hash(), {}, utc_now(), game.Terms(addresses=addresses),
    )  # fmt: skip
    for name, text in joins.opening(definition, ids):
        referee.adjudicate(gd.root, ids["referee"], [(name, text.encode())], utc_now())
    bots = {s: Bot(ids[s], definition, f"idle-{n}") for s in SIDES}
    for _ in range(turns):
        seq = gd.last_seq()
        pending = chain.read_record(gd, definition, seq).body["pending"]
        if not pending:
            break
        side = pending[0]["side"]
        turn = bots[side].answer(gd.packet(seq, side).read_text(), "p")
        referee.adjudicate(gd.root, ids["referee"], [("t", turn.encode())], utc_now())
    return gd.root


def robot_pass(root: Path, dirs: list[Path]) -> float:
    env = {"SEKI_HOME": str(root / "keys"), "PATH": "/usr/bin:/bin"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", "referee", "run", str(root / "spool"),
         *map(str, dirs), "--key", "referee", "--maildir", str(root / "maildir"),
         "--mail-config", str(root / "mail.toml"), "--no-send"],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"seki referee run failed: {done.stderr}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="games in the spool")
    parser.add_argument("turns", nargs="?", type=int, default=6, help="turn files per game")
    parser.add_argument("--quick", action="store_true", help="CI's run: 3 games, one idle pass")
    args = parser.parse_args()
    games, turns, passes = (3, 2, 1) if args.quick else (args.games, args.turns, 3)
    bare = bare_start()
    root = scratch("seki-robot-")
    ids = {n: generate(n) for n in ("referee", *SIDES)}
    write_identity(root / "keys", ids["referee"])
    (root / "maildir" / "new").mkdir(parents=True)
    for sub in ("cur", "tmp"):
        (root / "maildir" / sub).mkdir()
    (root / "mail.toml").write_text('from = "referee@robot.invalid"\n')
    start = time.perf_counter()
    dirs = [make_game(root / "games", n, ids, turns) for n in range(games)]
    made = time.perf_counter() - start
    first = robot_pass(root, dirs)
    idle = [robot_pass(root, dirs) for _ in range(passes)]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    median = statistics.median(idle)
    print(f"bare interpreter start: {1000 * bare:.0f} ms")
    print(f"{games} games, {turns} turn files each, made in {made:.0f} s")
    print(f"first pass (queues every game's mail): {first:.2f} s")
    print(
        f"idle pass over {games} games: median {median:.2f} s of {passes} (max {max(idle):.2f} s), "
        f"{median / bare:.0f}x a bare start; {1000 * median / games:.1f} ms a game "
        f"(target 5 s)"
    )
    print(f"peak memory of a pass: {peak:.0f} MB (target 200 MB)")


if __name__ == "__main__":
    main()
