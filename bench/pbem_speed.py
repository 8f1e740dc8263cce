"""Play-by-email speed, whole processes: `seki adjudicate` of one movement turn (signature
check, engine, sealing two packets, git commit) early and late in a game, the player's
`seki view` of the packet and `seki turn check` of its answer, `seki verify` of the
complete archive, and `seki --help`; each with its ratio to a bare interpreter start
(`python -c pass`) measured in the same run.

Usage: python bench/pbem_speed.py   (targets, issue 18: adjudicate median <= 250 ms, the
same in week 7 as in week 1; view and turn check <= 3x a bare start; verify <= 1 s)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from floor import bare_start, library_start

from sekigahara_pbem.commands.common import utc_now
from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import chain, game, joins, packets, turns
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee.demo import Bot


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


def line(what: str, seconds: list[float], bare: float) -> str:
    median = statistics.median(seconds)
    return (
        f"{what}: median {1000 * median:.0f} ms over {len(seconds)} runs "
        f"(max {1000 * max(seconds):.0f} ms), {median / bare:.1f}x a bare start"
    )


def main() -> None:
    bare = bare_start()
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
    (home / "games").mkdir()
    (home / "games" / "bench.txt").write_text((gd.root / "game.txt").read_text())  # joined
    bots = {s: Bot(ids[s], definition, "bench-7", kind="heuristic") for s in ("ishida", "tokugawa")}
    timings: dict[int, list[float]] = {}
    player: dict[str, list[float]] = {"view": [], "turn check": []}
    for _ in range(5000):
        seq = gd.last_seq()
        record = chain.read_record(gd, definition, seq)
        if not record.body["pending"]:
            break
        side = record.body["pending"][0]["side"]
        sent = gd.packet(seq, side)
        packet = packets.open_packet(definition, sent.read_text(), ids[side], "p")
        actions = bots[side].player.actions(packet.view, packet.options)
        body = turns.body("bench", side, seq, actions)
        turn = bots[side].sealed(body)  # as Bot.answer, keeping the body for turn check
        path = root / "turn.txt"
        path.write_text(turn)
        label = record.body["pending"][0]["decision"]
        if label == "movement":
            player["view"].append(seki("view", str(sent), "--key", side, home=home))
            unsigned = root / "turn.yaml"
            unsigned.write_text(body)
            check = ("turn", "check", str(unsigned), "--packet", str(sent), "--key", side)
            player["turn check"].append(seki(*check, home=home))
            week = referee.current(referee.open_game(gd.root, ids["referee"]))[1]["week"]
            elapsed = seki("adjudicate", str(gd.root), str(path), "--key", "referee", home=home)
            timings.setdefault(week, []).append(elapsed)
        else:
            referee.adjudicate(gd.root, ids["referee"], [("t", turn.encode())], now())
    print(f"bare interpreter start: {1000 * bare:.0f} ms")
    libraries = library_start()
    print(
        f"importing click, PyYAML, Jinja and cryptography alone: {1000 * libraries:.0f} ms, "
        f"{libraries / bare:.1f}x a bare start (no command can start faster)"
    )
    for week in sorted(timings):
        print(line(f"week {week}: seki adjudicate of a movement turn", timings[week], bare))
    every = [t for week in timings.values() for t in week]
    print(line("seki adjudicate, all weeks", every, bare))
    for what, seconds in player.items():
        print(line(f"seki {what} (a movement turn)", seconds, bare))
    seki("reveal", str(gd.root), "--key", "referee", "--force", home=home)
    took = [seki("verify", str(gd.root), home=home) for _ in range(3)]
    print(line(f"seki verify of {gd.last_seq()} records", took, bare))
    print(line("seki --help", [seki("--help", home=home) for _ in range(5)], bare))


if __name__ == "__main__":
    main()
