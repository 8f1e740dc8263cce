"""Play-by-email speed, whole processes: `seki adjudicate` of one movement turn (signature
check, engine, sealing two packets, git commit) early and late in a game, `seki verify`
of the complete archive, and `seki --help`.

Usage: python bench/pbem_speed.py   (targets: adjudicate median < 400 ms, the same in
week 7 as in week 1; verify < 5 s; --help < 300 ms)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sekigahara_pbem.commands.common import utc_now
from sekigahara_pbem.component_files import components_hash
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.pbem import chain, game, joins, referee
from sekigahara_pbem.pbem.demo import Bot
from sekigahara_pbem.pbem.store import GameDir


def now() -> str:
    """The real time: the timed `seki adjudicate` runs take it too, and a record's time
    may not go back before the one before it."""
    return utc_now()


def seki(*args: str, home: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args],
        capture_output=True, text=True, env={"SEKI_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"seki {' '.join(args)} failed: {done.stderr}")
    return time.perf_counter() - start


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="seki-bench-"))
    home = root / "keys"
    ids = {n: generate(n) for n in ("referee", "ishida", "tokugawa")}
    for identity in ids.values():
        write_identity(home, identity)
    gd = GameDir(root / "game")
    definition = game.create(
        gd.root, "bench", ids["referee"], {s: ids[s].public for s in ("ishida", "tokugawa")},
        components_hash(), {}, now(),
    )  # fmt: skip
    for name, text in joins.opening(definition, ids):
        referee.adjudicate(gd.root, ids["referee"], [(name, text.encode())], now())
    bots = {s: Bot(ids[s], definition, "bench-7") for s in ("ishida", "tokugawa")}
    timings: dict[int, list[float]] = {}
    for _ in range(5000):
        seq = gd.last_seq()
        record = chain.read_record(gd, definition, seq)
        if not record.body["pending"]:
            break
        side = record.body["pending"][0]["side"]
        turn = bots[side].answer(gd.packet(seq, side).read_text(), "p")
        path = root / "turn.txt"
        path.write_text(turn)
        label = record.body["pending"][0]["decision"]
        if label == "movement":
            week = referee.current(referee.open_game(gd.root, ids["referee"]))[1]["week"]
            elapsed = seki("adjudicate", str(gd.root), str(path), "--key", "referee", home=home)
            timings.setdefault(week, []).append(elapsed)
        else:
            referee.adjudicate(gd.root, ids["referee"], [("t", turn.encode())], now())
    for week in sorted(timings):
        ms = [t * 1000 for t in timings[week]]
        median = statistics.median(ms)
        print(f"week {week}: seki adjudicate of a movement turn, median {median:.0f} ms "
              f"over {len(ms)} runs (max {max(ms):.0f} ms)")  # fmt: skip
    seki("reveal", str(gd.root), "--key", "referee", "--force", home=home)
    print(f"seki verify of {gd.last_seq()} records: "
          f"{seki('verify', str(gd.root), home=home):.2f} s")  # fmt: skip
    helps = [seki("--help", home=home) * 1000 for _ in range(5)]
    print(f"seki --help: median {statistics.median(helps):.0f} ms")


if __name__ == "__main__":
    main()
