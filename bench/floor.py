"""The floor every benchmark's figures are measured against: a bare interpreter start
(`python -c pass`), timed in the same run, since the machine's speed varies more than
the ratios do (issue 18); and the library floor, the start that imports seki's libraries and
nothing of seki (issue 38).

Usage: python bench/floor.py [RUNS] [--quick]   (default 7 starts of each; --quick: 3)
"""

from __future__ import annotations

import argparse
import atexit
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# What a player's command cannot start without: the command line (click), signatures
# and sealing (cryptography), documents (PyYAML, with libyaml) and reports (Jinja).
LIBRARIES = (
    "import click, yaml, jinja2, cryptography.hazmat.primitives.serialization, "
    "cryptography.hazmat.primitives.asymmetric.x25519"
)


def scratch(prefix: str) -> Path:
    """A new temporary directory, removed when the benchmark exits: a run makes whole
    games in it, and CI runs every benchmark."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, root, True)
    return root


def bare_start(runs: int = 7) -> float:
    """The median seconds of `runs` bare interpreter starts."""
    return _median_run("pass", runs)


def library_start(runs: int = 7) -> float:
    """The median seconds of `runs` interpreter starts that import seki's libraries and
    nothing of seki: the part of a command's time no change to seki can remove."""
    return _median_run(LIBRARIES, runs)


def _median_run(code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=7, help="starts per floor")
    parser.add_argument("--quick", action="store_true", help="CI's run: three starts per floor")
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    bare, libraries = bare_start(runs), library_start(runs)
    print(f"bare interpreter start: median {1000 * bare:.0f} ms of {runs}")
    print(
        f"the library floor (importing click, PyYAML, Jinja and cryptography alone): median "
        f"{1000 * libraries:.0f} ms of {runs}, {libraries / bare:.1f}x a bare start"
    )


if __name__ == "__main__":
    main()
