"""The floor every benchmark's figures are measured against: a bare interpreter start
(`python -c pass`), timed in the same run, since the machine's speed varies more than
the ratios do (issue 18)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


def bare_start(runs: int = 7) -> float:
    """The median seconds of `runs` bare interpreter starts."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
