"""The path of one decision through the package, in both modes: which of seki's modules
a deploy passes through, from the player who makes it to the party that takes it in,
each a whole process. In a referee's game: `seki play` (the player building and signing
it at the terminal's scripted prompt) and `seki adjudicate` (the referee admitting it).
In a two-party game: `seki play DIR -r RECORD` (the side taking in the other's record,
then building its own with the deploy and signing it) and `seki play DIR -r RECORD` on
the other side (taking that record in, its entries retraced).

A game is played by two heuristic bots through the real files until a side is asked to
deploy (8.2.3); then each command runs under a profiler that notes the source file of
every function of seki's called. Module and class bodies, which merely
import and define, are not counted: only functions (code the compiler optimises: a def,
a lambda, a comprehension, a generator). Issue 29 measured 63 files before the
restructuring; issue 40, 86 (class bodies counted then, as until December 2026).

    python bench/decision_path.py            # the counts, by package and mode
    python bench/decision_path.py --files    # and every file
    python bench/decision_path.py --quick    # CI's run: the same (one decision is quick)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # conftest.fix_seeds

import pytest  # noqa: E402
from conftest import fix_seeds  # noqa: E402

from sekigahara_pbem.bot import make_player  # noqa: E402
from sekigahara_pbem.crypto.keys import Identity  # noqa: E402
from sekigahara_pbem.crypto.keystore import write_identity  # noqa: E402
from sekigahara_pbem.protocol import chain  # noqa: E402
from sekigahara_pbem.protocol import game as games  # noqa: E402
from sekigahara_pbem.protocol.component_files import components_hash, load_components  # noqa: E402
from sekigahara_pbem.protocol.store import GameDir  # noqa: E402
from sekigahara_pbem.referee.demo import Bots, run_demo  # noqa: E402
from sekigahara_pbem.rules.options import options  # noqa: E402
from sekigahara_pbem.rules.vocab import ISHIDA, SIDES, other  # noqa: E402
from sekigahara_pbem.twoparty import files  # noqa: E402
from sekigahara_pbem.twoparty.match import player_chooser  # noqa: E402
from sekigahara_pbem.twoparty.side import Side  # noqa: E402

NOW = "2026-11-25T00:00:00Z"
LAST = [""]  # the last command's output, for a failure
TRACED = """
import inspect, json, sys
seen = set()
def note(frame, event, arg):
    if event == "call" and frame.f_code.co_flags & inspect.CO_OPTIMIZED:
        seen.add(frame.f_code.co_filename)
sys.argv = ["seki", *json.loads(sys.argv[1])]
sys.setprofile(note)
try:
    from sekigahara_pbem.cli import main
    main()
except SystemExit:
    pass
finally:
    sys.setprofile(None)
with open(OUT, "w") as out:
    json.dump(sorted(seen), out)
"""


def to_deploy(root: Path) -> tuple[Path, str]:
    """A game under `root` played by `seki demo`'s heuristic bots until a record asks a
    side to deploy: that side's packet, and the side. The same game every run, so that
    counts compare from one commit to the next: its seeds fixed as the tests fix them."""
    with pytest.MonkeyPatch.context() as patch:
        fix_seeds(patch, "path")
        result = run_demo(root, "path", NOW, bots=Bots("heuristic"), until=_deploys)
    gd = GameDir(result.game_dir)
    seq = gd.last_seq()
    pending = chain.read_record(gd, games.load(gd), seq).body["pending"]
    side = next((d["side"] for d in pending if _deploys(d)), None)
    if side is None:
        raise SystemExit("no deployment was asked")
    return gd.packet(seq, side), side


def _deploys(decision: dict) -> bool:
    return decision["decision"] == "deploy"


def traced(root: Path, args: list[str], home: Path | None = None) -> list[str]:
    """The package's source files with a function called while `seki args` ran (its keys
    in `home`, default `root/keys`)."""
    out = root / "trace.json"
    out.unlink(missing_ok=True)
    env = dict(os.environ, SEKI_HOME=str(home or root / "keys"), PYTHONPATH=str(ROOT))
    code = TRACED.replace("OUT", repr(str(out)))
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)], cwd=root, env=env,
        capture_output=True, text=True,
    )  # fmt: skip
    LAST[:] = [done.stdout[-2000:] + done.stderr[-2000:]]
    if not out.exists():
        raise SystemExit(f"seki {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    package = str(ROOT / "sekigahara_pbem")
    return [f[len(package) + 1 :] for f in json.loads(out.read_text()) if f.startswith(package)]


def referee_path(root: Path) -> tuple[list[str], list[str]]:
    """A referee's game: the files of `seki play` building the deploy's turn file, and
    of `seki adjudicate` admitting it."""
    packet, side = to_deploy(root)
    turn = root / "deploy.signed.txt"
    traced(root, ["join", str(root / "game" / "game.txt"), "--key", side])  # its copy
    for answers in range(1, 12):  # the first choice at every question, to the end
        choose = ",".join(["1"] * answers)
        play = traced(root, ["play", str(packet), "--key", side, "--choose", choose,
                             "--out", str(turn)])  # fmt: skip
        if turn.exists():
            break
    else:
        raise SystemExit(f"seki play wrote no turn file ({packet}, {side}): {LAST[0]}")
    judge = traced(root, ["adjudicate", str(root / "game"), str(turn), "--key", "referee"])
    return play, judge


class _Deploys(Exception):
    """The side whose record is being written is asked to deploy."""


def _identity(name: str) -> Identity:
    """A side's keys, the same every run (so is the game: its draws come from them)."""
    seed = hashlib.sha256(f"path-{name}".encode()).digest()
    return Identity(
        name,
        Ed25519PrivateKey.from_private_bytes(seed),
        X25519PrivateKey.from_private_bytes(hashlib.sha256(seed).digest()),
    )


def two_party_to_deploy(root: Path) -> tuple[Path, str]:
    """A two-party game under `root/ishida` and `root/tokugawa` (keys in `root/home-SIDE`),
    played by heuristic bots until the record a side takes in leaves it to deploy: that
    record (its directory put back to before it took it in), and the
    side."""
    comp = load_components()
    keys = {s: _identity(s) for s in SIDES}
    with pytest.MonkeyPatch.context() as patch:  # the game's nonce, fixed too
        patch.setattr(files, "os", SimpleNamespace(urandom=lambda n: bytes(n)))
        text = files.make_game(
            "path-2p", components_hash(), {}, {s: k.public for s, k in keys.items()}, keys[ISHIDA]
        )
    game = files.read_game(text, "game.txt")
    sides = {}
    for s in SIDES:
        (root / s).mkdir()
        (root / s / "game.txt").write_text(text)
        write_identity(root / f"home-{s}", keys[s])
        sides[s] = Side(root / s, game, keys[s], comp)
    joins = {s: sides[s].join(NOW) for s in SIDES}
    for s in SIDES:
        sides[other(s)].receive(joins[s], "join", NOW)
    players = {s: player_chooser(make_player("heuristic", comp, {}, f"path-{s}")) for s in SIDES}

    def stops_at_deploy(side: str):
        """The side's bot, stopped where the record just taken in leaves it to deploy
        first: its `seki play` then asks the deploy before anything else."""
        asked = []

        def choose(state, kc, who):
            if not asked and any(o["type"] == "deploy" for o in options(state, kc, who)):
                raise _Deploys
            asked.append(who)
            return players[side](state, kc, who)

        return choose

    turn, sent = ISHIDA, None
    for n in range(2, 2000):
        if sides[turn].result() is not None:
            break
        try:
            text = sides[turn].turn(stops_at_deploy(turn), NOW)
        except _Deploys:
            if sent is None:
                break
            shutil.rmtree(root / turn)
            shutil.copytree(root / f"before-{turn}", root / turn)
            return sent, turn
        sent = root / f"sent-{n}.txt"
        sent.write_text(text)
        reader = other(turn)
        shutil.rmtree(root / f"before-{reader}", ignore_errors=True)
        shutil.copytree(root / reader, root / f"before-{reader}")
        sides[reader].receive(text, "mail", NOW)
        turn = reader
    raise SystemExit("no deployment was asked")


def two_party_path(root: Path) -> tuple[list[str], list[str]]:
    """A two-party game: the files of the side's `seki play -r` taking in the record
    before and writing its own with the deploy, and of the other side's taking it in."""
    sent, side = two_party_to_deploy(root)
    kept = root / "kept"
    shutil.copytree(root / side, kept)
    home = {s: root / f"home-{s}" for s in SIDES}
    for answers in range(1, 12):  # the first choice at every question, to the end
        before = len(list((root / side / "records").iterdir()))
        choose = ",".join(["1"] * answers)
        play = traced(root, ["play", str(root / side), "--key", side, "-r", str(sent),
                             "--choose", choose], home[side])  # fmt: skip
        written = sorted((root / side / "records").iterdir())
        if len(written) > before + 1:  # the record taken in, and its own
            break
        shutil.rmtree(root / side)
        shutil.copytree(kept, root / side)
    else:
        raise SystemExit(f"seki play wrote no record ({side}): {LAST[0]}")
    reader = other(side)
    take = traced(root, ["play", str(root / reader), "--key", reader, "-r", str(written[-1]),
                         "--choose", "1"], home[reader])  # fmt: skip
    return play, take


def report(what: str, writer: str, reader: str, paths: tuple[list[str], list[str]],
           files: bool) -> None:  # fmt: skip
    """One mode's counts: each command's files, both, and by package."""
    first, second = paths
    both = sorted(set(first) | set(second))
    print(f"a deploy decision, {what}: {writer} {len(first)} files, {reader} {len(second)}, "
          f"both {len(both)}")  # fmt: skip
    by = Counter(f.split("/")[0] if "/" in f else "(top)" for f in both)
    print("  by package: " + ", ".join(f"{k} {n}" for k, n in sorted(by.items())))
    if files:
        for f in both:
            print("   ", f)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", action="store_true", help="print every file too")
    parser.add_argument("--quick", action="store_true", help="CI's run: the same, it is quick")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        referee = referee_path(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        two = two_party_path(Path(tmp))
    report("a referee's game", "seki play", "seki adjudicate", referee, args.files)
    report("a two-party game", "seki play (the side)", "seki play -r (the other)", two,
           args.files)  # fmt: skip
    every = sorted(set(referee[0]) | set(referee[1]) | set(two[0]) | set(two[1]))
    print(f"both modes: {len(every)} files")


if __name__ == "__main__":
    main()
