"""The path of one decision through the package: which of seki's modules a deploy passes
through in `seki play` (the player building and signing it at the terminal's scripted
prompt) and in `seki adjudicate` (the referee admitting it), each a whole process.

A referee game is played by two heuristic bots through the real files until a packet
asks a side to deploy (8.2.3); then each command runs under a profiler that notes the
source file of every function of seki's called. Module and class bodies, which merely
import and define, are not counted: only functions (code the compiler optimises: a def,
a lambda, a comprehension, a generator). Issue 29 measured 63 files before the
restructuring; issue 40, 86 (class bodies counted then, as until December 2026).

    python bench/decision_path.py            # the counts, by package
    python bench/decision_path.py --files    # and every file
    python bench/decision_path.py --quick    # CI's run: the same (one decision is quick)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # conftest.fix_seeds

import pytest  # noqa: E402
from conftest import fix_seeds  # noqa: E402

from sekigahara_pbem.protocol import chain  # noqa: E402
from sekigahara_pbem.protocol import game as games  # noqa: E402
from sekigahara_pbem.protocol.store import GameDir  # noqa: E402
from sekigahara_pbem.referee.demo import Bots, run_demo  # noqa: E402

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


def traced(root: Path, args: list[str]) -> list[str]:
    """The package's source files with a function called while `seki args` ran."""
    out = root / "trace.json"
    env = dict(os.environ, SEKI_HOME=str(root / "keys"), PYTHONPATH=str(ROOT))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", action="store_true", help="print every file too")
    parser.add_argument("--quick", action="store_true", help="CI's run: the same, it is quick")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
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
    both = sorted(set(play) | set(judge))
    print(f"a deploy decision: seki play {len(play)} files, seki adjudicate {len(judge)}, "
          f"both {len(both)}")  # fmt: skip
    by = Counter(f.split("/")[0] if "/" in f else "(top)" for f in both)
    print("  by package: " + ", ".join(f"{k} {n}" for k, n in sorted(by.items())))
    if args.files:
        for f in both:
            print("   ", f)


if __name__ == "__main__":
    main()
