"""`seki play`, measured: keystrokes (terminal) and clicks (`--web`) of a typical movement
turn of three stack moves, and the whole process from start to the first question, at the
terminal and on the page.

Keystrokes follow the terminal's rules (play/console.py): a choice whose number no other
choice begins with is one key; a longer number is its digits and Enter; a default is
Enter; several numbers are their digits, a space between, and Enter; the turn's summary is
signed with Enter. The sample: positions from random games where a side chooses its
movement level with three movable stacks and a card; the scripted player buys limited
movement with one card, moves three stacks (all their blocks, one or two steps each) and
ends the phase.

Clicks follow the page's rules (web/static/page.js): a question that picks one is one
click (on the map, a card or a button); one that picks several is a click per choice
taken or left out from its default (a block's tile, a card of the hand, a tick), then OK;
the turn's summary is signed with a click.
On the page the first question is there once the page's state answers with it.

Usage: python bench/play.py [--quick]   (goals: median keystrokes <= 25; start to the first
question <= 500 ms at the terminal, printed with its ratio to a bare interpreter start; the
page's first question within 2x the terminal's. --quick: CI's run, QUICK_SAMPLE positions
and one start of each, so the script cannot rot unnoticed; its figures mean little)
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import unquote, urlsplit

from floor import scratch

from sekigahara_pbem.crypto.keys import generate
from sekigahara_pbem.crypto.keystore import write_identity
from sekigahara_pbem.protocol import game, joins
from sekigahara_pbem.protocol.component_files import components_hash, load_components
from sekigahara_pbem.protocol.store import GameDir
from sekigahara_pbem.referee import adjudication as referee
from sekigahara_pbem.rules import rng
from sekigahara_pbem.rules.decisions import current
from sekigahara_pbem.rules.decisions.stack_move import STOP
from sekigahara_pbem.rules.engine import apply, pending
from sekigahara_pbem.rules.vocab import MOVEMENT
from sekigahara_pbem.testing.random_player import playout

NOW = "2026-11-22T00:00:00Z"
ON_THE_BOARD = "your turn is on the board: "  # then the forwarding file's address
FORWARD = re.compile(r'url=(http://127\.0\.0\.1:\d+)(/enter\?key=[^"]+)"')  # in the file
SAMPLE = 60  # positions counted
RUNS = 7  # starts timed of each
QUICK_SAMPLE = 5


def keys(question, value) -> int:
    """Keystrokes to give `value` to `question` at the terminal."""
    values = [c.value for c in question.choices]
    if value == question.default:
        return 1
    if isinstance(value, list):
        digits = [str(values.index(v) + 1) for v in value]
        return sum(map(len, digits)) + len(digits)  # spaces between, Enter at the end
    i, n = values.index(value) + 1, len(values)
    return len(str(i)) + (0 if i * 10 > n else 1)


def _place(value: object) -> object:
    """The location a path step names: a location, or (location, force march)."""
    return value[0] if isinstance(value, tuple) else value


def clicks(question, value) -> int:
    """Clicks to give `value` to `question` on the page."""
    if question.pick == "one":
        return 1
    default = question.default if isinstance(question.default, list) else []
    return len(set(value) ^ set(default)) + 1  # the ticks changed, then OK


def movement_turn(state: dict, comp, side: str, chooser: dict) -> tuple[int, int] | None:
    """Keystrokes and clicks of one three-stack movement turn, or None if the position
    has none."""
    total, moves, clicked = 0, 0, 0
    while moves < 3:
        dialogue = current(state).dialogue(state, comp, side)
        question, steps = next(dialogue), 0
        try:
            while True:
                values = [c.value for c in question.choices]
                if question.key == "movement":
                    value = "level" if "level" in values else "move" if "move" in values else None
                elif question.key == "level":
                    value = "limited"
                elif question.key == "level_cards":
                    value = [values[0]]
                elif question.key == "stack":
                    value = values[rng.below(chooser, len(values))]
                elif question.key == "step":
                    places = [v for v in values if _place(v) in comp.locations]
                    go = steps == 0 or (steps == 1 and rng.below(chooser, 2))
                    go = places and (go or STOP not in values)
                    value = places[rng.below(chooser, len(places))] if go else STOP
                    steps += 1
                else:
                    value = question.default
                if value is None:
                    return None
                total += keys(question, value)
                clicked += clicks(question, value)
                question = dialogue.send(value)
        except StopIteration as done:
            state, _ = apply(state, comp, side, done.value)
            moves += done.value["type"] == "move"
    end = next(current(state).dialogue(state, comp, side))
    # then Enter, or a click, signs
    return total + keys(end, "end_movement") + 1, clicked + clicks(end, "end_movement") + 1


def keystrokes(sample: int = SAMPLE) -> list[tuple[int, int]]:
    """Keystrokes and clicks of a movement turn in `sample` positions of random games."""
    comp = load_components()
    found: list[tuple[dict, str]] = []

    def keep(before, after, side, action, events):
        phase = before["phase"]
        if before["step"] == MOVEMENT and phase["level"] is None and before["cards"][side]["hand"]:
            found.append((before, side))

    seed = 0
    while len(found) < sample * 3:
        playout(comp, seed, max_actions=800, on_step=keep, plans=False)
        seed += 1
    chooser = rng.new("a1" * 16)
    counts = []
    for state, side in found:
        if not any(d["side"] == side for d in pending(state)):
            continue
        n = movement_turn(state, comp, side, chooser)
        if n is not None:
            counts.append(n)
        if len(counts) == sample:
            break
    return counts


def timed(*argv: str, home: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, env={"SEKI_HOME": str(home), "PATH": "/usr/bin:/bin"})
    return time.perf_counter() - start


def on_the_page(play: list[str], home: Path) -> float:
    """Seconds from starting `seki play --web` to the page's state holding the first
    question (the browser's side: through the door of the forwarding file seki names,
    web/door.py, then the page's state, again while it says to wait, as the page asks
    again), then stopped."""
    env = {"SEKI_HOME": str(home), "PATH": "/usr/bin:/bin", "BROWSER": "true"}
    start = time.perf_counter()
    process = subprocess.Popen(
        [*play, "--web"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    try:
        for line in process.stdout:
            if line.startswith(ON_THE_BOARD):
                origin, cookie = _enter(line[len(ON_THE_BOARD) :].strip())
                while "waiting" in (now := _state(origin, cookie)):
                    time.sleep(0.01)
                assert now["question"] is not None
                took = time.perf_counter() - start
                headers = {"Cookie": cookie, "Content-Type": "application/json"}
                stop = urllib.request.Request(f"{origin}/stop", b"{}", headers, method="POST")
                urllib.request.urlopen(stop).close()
                process.wait()
                return took
    finally:
        if process.poll() is None:  # the page was not stopped: seki play is, here
            process.kill()
            process.wait()
        process.stdout.close()
    raise SystemExit("seki play --web said no address")


def _enter(address: str) -> tuple[str, str]:
    """Through the door, as the browser goes: the server's origin, and the Cookie header
    the one-time key in the forwarding file at `address` (a file: URI) buys."""
    found = FORWARD.search(Path(unquote(urlsplit(address).path)).read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit(f"no forwarding address in {address}")
    with urllib.request.urlopen(found[1] + found[2]) as answer:
        jar = SimpleCookie(answer.headers["Set-Cookie"])
    return found[1], "; ".join(f"{name}={c.value}" for name, c in jar.items())


def _state(origin: str, cookie: str) -> dict:
    """The page's state now."""
    request = urllib.request.Request(f"{origin}/state", headers={"Cookie": cookie})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def first_question(runs: int = RUNS) -> tuple[float, float, float]:
    """Median seconds of `seki play PACKET --choose q` (start, open, report, the first
    question, stop), of the same on the page (`on_the_page`) and of a bare
    `python -c pass`."""
    root = scratch("seki-bench-")
    home = root / "keys"
    ids = {n: generate(n) for n in ("referee", "ishida", "tokugawa")}
    for identity in ids.values():
        write_identity(home, identity)
    gd = GameDir(root / "game")
    players = {s: ids[s].public for s in ("ishida", "tokugawa")}
    definition = game.create(gd.root, "bench", ids["referee"], players, components_hash(), {}, NOW)
    (home / "games").mkdir(parents=True, exist_ok=True)
    (home / "games" / "bench.txt").write_text(definition.text)
    for name, text in joins.opening(definition, ids):
        referee.adjudicate(gd.root, ids["referee"], [(name, text.encode())], NOW)
    packet = str(gd.packet(gd.last_seq(), "ishida"))
    play = [sys.executable, "-m", "sekigahara_pbem", "play", packet, "--key", "ishida"]
    seki = [timed(*play, "--choose", "q", home=home) for _ in range(runs)]
    page = [on_the_page(play, home) for _ in range(runs)]
    bare = [timed(sys.executable, "-c", "pass", home=home) for _ in range(runs)]
    return statistics.median(seki), statistics.median(page), statistics.median(bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true",
        help=f"CI's run: {QUICK_SAMPLE} positions, one start of each",
    )  # fmt: skip
    quick = parser.parse_args().quick
    turns = keystrokes(QUICK_SAMPLE if quick else SAMPLE)
    for name, counts in (("keystrokes", [k for k, _ in turns]), ("clicks", [c for _, c in turns])):
        print(f"{name} of a three-stack movement turn: median {statistics.median(counts)}, "
              f"min {min(counts)}, max {max(counts)} over {len(counts)} positions")  # fmt: skip
    seki, page, bare = first_question(1 if quick else RUNS)
    print(f"seki play, start to the first question: {seki * 1000:.0f} ms; bare interpreter "
          f"start {bare * 1000:.0f} ms; ratio {seki / bare:.1f}")  # fmt: skip
    print(f"seki play --web, start to the first question on the page: {page * 1000:.0f} ms; "
          f"ratio {page / bare:.1f} to a bare start, {page / seki:.2f} to the "
          "terminal")  # fmt: skip


if __name__ == "__main__":
    main()
