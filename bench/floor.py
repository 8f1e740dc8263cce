"""The floor every benchmark's figures are measured against: a bare interpreter start
(`python -c pass`), timed in the same run, since the machine's speed varies more than
the ratios do (issue 18)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

# What a player's command cannot start without: the command line (click), signatures
# and sealing (cryptography), documents (PyYAML, with libyaml) and reports (Jinja).
LIBRARIES = (
    "import click, yaml, jinja2, cryptography.hazmat.primitives.serialization, "
    "cryptography.hazmat.primitives.asymmetric.x25519"
)


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
