"""Play-by-email speed, whole processes: `seki adjudicate` of one movement turn (signature
check, engine, sealing two packets, git commit) early and late in a game, the player's
`seki view` of the packet and `seki turn check` of its answer, `seki status` of the game
directory, `seki verify` of the archived demo game (games/demo) and of an archive about
twice as long (is verify flat per record?), `seki replay` of the demo game (once: it takes
seconds), and `seki --help`; each with its ratio to a bare interpreter start (`python -c
pass`) and to the library floor (an interpreter that imports seki's libraries and nothing
of seki), both timed in the same run (bench/floor.py).

The game whose commands are timed is played by two heuristic bots through the real files;
the long archive by two random bots that end a movement phase or a combat's deployment
only when nothing else is offered, and take back every TAKEBACK_EVERY-th turn file the
rules let them (a record undoing it, then the turn again): about twice the records of
`seki demo`'s random game, of every kind a game has.

Usage: python bench/pbem_speed.py [--quick]   (--quick: CI's run, a few records of each
game and one run of each command, so the script cannot rot unnoticed; its figures mean
nothing. Targets, issue 38: verify <= 20x a bare start and flat per record; status <= 1.5x
the library floor)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from floor import bare_start, library_start, scratch

from sekigahara_pbem.bot import RandomPlayer
from sekigahara_pbem.commands.common import utc_now
from sekigahara_pbem.crypto import signing
from sekigahara_pbem.crypto.keys import Identity, generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import chain, game, joins, packets, takebacks, turns
from sekigahara_pbem.protocol.component_files import components_hash
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.referee import verify as checks
from sekigahara_pbem.referee.demo import Bot
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.vocab import SIDES, other

DEMO = Path(__file__).resolve().parent.parent / "games" / "demo"
ENDINGS = ("end_movement", "finish")  # what the stalling player takes only when alone
TAKEBACK_EVERY = 2  # the long archive's bots take back every other turn file they may


@dataclass(frozen=True)
class Counts:
    """How much a run measures: `None` steps play a game to its end."""

    runs: int  # timed runs of each command that does not change the game
    verify_runs: int  # timed runs of each verify
    floor_runs: int  # interpreter starts per floor
    movement_turns: int | None  # movement turns adjudicated by a process
    long_steps: int | None  # turn files of the long archive


FULL = Counts(runs=5, verify_runs=3, floor_runs=7, movement_turns=None, long_steps=None)
QUICK = Counts(runs=1, verify_runs=1, floor_runs=3, movement_turns=2, long_steps=12)


@dataclass(frozen=True)
class Floors:
    bare: float  # seconds of `python -c pass`
    libraries: float  # seconds of an interpreter importing seki's libraries alone


class Stalling(RandomPlayer):
    """A random legal player that ends its movement or its deployment only when nothing
    else is offered: it moves every stack and plays every card it can, one per file, so
    its games have about twice the records of the plain random player's."""

    def actions(self, v: dict, offered: list[dict]) -> list[dict]:
        """One random action, other than ending the phase or step where there is another."""
        going_on = [a for a in offered if a["type"] not in ENDINGS]
        return super().actions(v, going_on or offered)


def now() -> str:
    """The real time: the timed `seki adjudicate` runs take it too, and a record's time
    may not go back before the one before it."""
    return utc_now()


def admit(gd: GameDir, ids: dict[str, Identity], name: str, text: str) -> None:
    """One document adjudicated in this process, which must be accepted."""
    outcome = referee.adjudicate(gd.root, ids["referee"], [(name, text.encode())], now())
    if not outcome[0].accepted:
        raise SystemExit(f"the referee refused {name}: {outcome[0].message}")


def take_back(
    gd: GameDir, definition: game.Definition, ids: dict[str, Identity], side: str
) -> None:
    """The last record, `side`'s turn, undone at its request and with the other side's
    consent, if the rules let it be (protocol/takebacks.py)."""
    record = chain.read_record(gd, definition, gd.last_seq())
    if takebacks.why_not_undoable(record.seq, record.body, side) is not None:
        return
    ask = takebacks.request_body(definition, side, record.seq, record.hash, "bench")
    request = signing.sign(ask, ids[side])
    admit(gd, ids, "request", request)
    answer = takebacks.parse_request(definition, request, "request").hash
    consent = takebacks.consent_body(definition, other(side), answer, "accept")
    admit(gd, ids, "consent", signing.sign(consent, ids[other(side)]))


def seki(*args: str, home: Path) -> float:
    """Seconds of one whole `seki` process, which must succeed."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_pbem", *args],
        capture_output=True, text=True, env={"SEKI_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"seki {' '.join(args)} failed: {done.stderr}")
    return time.perf_counter() - start


def line(what: str, seconds: list[float], floors: Floors, records: int = 0) -> str:
    """One figure: the median, and its ratio to each floor (and per record, if given)."""
    median = statistics.median(seconds)
    per = f", {1000 * median / records:.1f} ms a record" if records else ""
    return (
        f"{what}: median {1000 * median:.0f} ms over {len(seconds)} runs "
        f"(max {1000 * max(seconds):.0f} ms){per}; {median / floors.bare:.1f}x a bare start, "
        f"{median / floors.libraries:.2f}x the library floor"
    )


def new_game(root: Path, name: str, ids: dict[str, Identity]) -> tuple[GameDir, game.Definition]:
    """A game under `root`/`name`, joined by both sides, its copy in the key directory."""
    gd = GameDir(root / name)
    players = {s: ids[s].public for s in SIDES}
    definition = game.create(gd.root, name, ids["referee"], players, components_hash(), {}, now())
    for file, text in joins.opening(definition, ids):
        admit(gd, ids, file, text)
    (root / "keys" / "games").mkdir(exist_ok=True)
    (root / "keys" / "games" / f"{name}.txt").write_text(definition.text)
    return gd, definition


# A hook that adjudicates a movement turn itself: (the side, its packet, the unsigned turn,
# the signed one); False to stop the game there instead.
Movement = Callable[[str, Path, str, str], bool]


def play(
    gd: GameDir,
    definition: game.Definition,
    ids: dict[str, Identity],
    bots: dict[str, Bot],
    steps: int | None,
    movement: Movement | None = None,
    takeback_every: int = 0,
) -> None:
    """Play the game by its files for `steps` turn files (None: to the end); every turn
    file is adjudicated in this process unless `movement` takes a movement turn. With
    `takeback_every` n, every n-th turn file is taken back where the rules allow."""
    for n in range(1, 1 + (steps if steps is not None else 100_000)):
        seq = gd.last_seq()
        pending = chain.read_record(gd, definition, seq).body["pending"]
        if not pending:
            return
        side = pending[0]["side"]
        sent = gd.packet(seq, side)
        packet = packets.open_packet(definition, sent.read_text(), ids[side], "p")
        actions = bots[side].player.actions(packet.view, packet.options)
        body = turns.body(definition, side, seq, actions)
        turn = bots[side].sealed(body)  # as Bot.answer, keeping the body for turn check
        if movement and pending[0]["decision"] == "movement":
            if not movement(side, sent, body, turn):
                return
            continue
        admit(gd, ids, "turn", turn)
        if takeback_every and n % takeback_every == 0:
            take_back(gd, definition, ids, side)


def player_game(root: Path, ids: dict[str, Identity], counts: Counts, floors: Floors) -> GameDir:
    """The heuristic bots' game, its movement turns adjudicated, viewed and checked by
    whole processes; prints their figures."""
    home = root / "keys"
    gd, definition = new_game(root, "bench", ids)
    bots = {s: Bot(ids[s], definition, "bench-7", kind="heuristic") for s in SIDES}
    weeks: dict[int, list[float]] = {}
    player: dict[str, list[float]] = {"view": [], "turn check": []}

    def movement(side: str, sent: Path, body: str, turn: str) -> bool:
        if counts.movement_turns is not None and len(player["view"]) >= counts.movement_turns:
            return False
        player["view"].append(seki("view", str(sent), "--key", side, home=home))
        (root / "turn.yaml").write_text(body)
        check = ("turn", "check", str(root / "turn.yaml"), "--packet", str(sent), "--key", side)
        player["turn check"].append(seki(*check, home=home))
        (root / "turn.txt").write_text(turn)
        week = referee.current(referee.open_game(gd.root, ids["referee"]))[1]["week"]
        adjudicate = ("adjudicate", str(gd.root), str(root / "turn.txt"), "--key", "referee")
        weeks.setdefault(week, []).append(seki(*adjudicate, home=home))
        return True

    play(gd, definition, ids, bots, None, movement)
    for week in sorted(weeks):
        print(line(f"week {week}: seki adjudicate of a movement turn", weeks[week], floors))
    early, late = min(weeks), max(weeks)
    ratio = statistics.median(weeks[late]) / statistics.median(weeks[early])
    print(f"seki adjudicate late (week {late}) / early (week {early}): {ratio:.2f}")
    every = [t for week in weeks.values() for t in week]
    print(line("seki adjudicate, all weeks", every, floors))
    for what, seconds in player.items():
        print(line(f"seki {what} (a movement turn)", seconds, floors))
    return gd


def long_archive(root: Path, ids: dict[str, Identity], steps: int | None) -> GameDir:
    """The stalling random bots' game (`Stalling`), revealed so that it can be verified."""
    gd, definition = new_game(root, "long", ids)
    bots = {s: Bot(ids[s], definition, "bench-long") for s in SIDES}
    for s in SIDES:
        bots[s].player = Stalling(rng.new(f"{SIDES.index(s) + 10**6:032x}"))
    play(gd, definition, ids, bots, steps, takeback_every=TAKEBACK_EVERY)
    checks.reveal(gd.root, ids["referee"], now(), force=True)
    return gd


def verified(gd: GameDir, counts: Counts, floors: Floors, home: Path, what: str) -> str:
    """`seki verify` of the archive in `gd`, timed, with its time per record."""
    took = [seki("verify", str(gd.root), home=home) for _ in range(counts.verify_runs)]
    records = gd.last_seq()
    return line(f"seki verify of {what} ({records} records)", took, floors, records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true",
        help="CI's run: a few records of each game, one run of each command",
    )  # fmt: skip
    counts = QUICK if parser.parse_args().quick else FULL
    floors = Floors(bare_start(counts.floor_runs), library_start(counts.floor_runs))
    print(f"bare interpreter start: {1000 * floors.bare:.0f} ms")
    print(
        f"the library floor (importing click, PyYAML, Jinja and cryptography alone): "
        f"{1000 * floors.libraries:.0f} ms, {floors.libraries / floors.bare:.1f}x a bare start "
        "(no command can start faster)"
    )
    root = scratch("seki-bench-")
    home = root / "keys"
    ids = {n: generate(n) for n in ("referee", *SIDES)}
    for identity in ids.values():
        write_identity(home, identity)
    gd = player_game(root, ids, counts, floors)
    status = [seki("status", str(gd.root), home=home) for _ in range(counts.runs)]
    print(line("seki status of the game's directory", status, floors))
    print(verified(GameDir(DEMO), counts, floors, home, "games/demo"))
    page = root / "replay.html"
    took = [seki("replay", str(DEMO), "--html", str(page), home=home)]
    print(line("seki replay of games/demo (the page of every record's maps)", took, floors))
    long = long_archive(root, ids, counts.long_steps)
    print(verified(long, counts, floors, home, "the long archive"))
    print(line("seki --help", [seki("--help", home=home) for _ in range(counts.runs)], floors))


if __name__ == "__main__":
    main()
