"""CI's shares of the test files, balanced by time: `python .ci/shares.py TIMES N K` prints
the files of share K of N (0 to N-1), one a line. TIMES is the JSON of each file's seconds
that the run's first pytest wrote (SEKI_TEST_TIMES, tests/conftest.py), so the split
follows the suite as it is today; a file it lacks counts as the median. The heaviest file
goes first, each to the lightest share: thirds by count took 160 s and 332 s at one
landing."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def shares(times: dict[str, float], files: list[str], count: int) -> list[list[str]]:
    """The files in `count` groups of nearly equal time (longest processing time first)."""
    typical = statistics.median(times.values()) if times else 1.0
    groups: list[list[str]] = [[] for _ in range(count)]
    load = [0.0] * count
    for f in sorted(files, key=lambda f: (-times.get(f, typical), f)):
        k = load.index(min(load))
        groups[k].append(f)
        load[k] += times.get(f, typical)
    return [sorted(g) for g in groups]


def main() -> None:
    times = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    files = sorted(str(p) for p in Path("tests").glob("test_*.py"))
    print("\n".join(shares(times, files, int(sys.argv[2]))[int(sys.argv[3])]))


if __name__ == "__main__":
    main()
