"""The nightly fuzz run of issue 11: COUNT mutated documents through the real commands
(tests/fuzzing.py), with the tally of outcomes per entry point and every failure's seed.

Usage: python bench/fuzz.py [COUNT] [SEED]   (default 100000, 7)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import Table, run  # noqa: E402


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    table = Table(Path(tempfile.mkdtemp(prefix="seki-fuzz-")))
    start = time.perf_counter()
    outcome = run(table, count, seed)
    elapsed = time.perf_counter() - start
    for (point, code), n in sorted(outcome.runs.items()):
        print(f"{point:>12}  exit {code}: {n}")
    total = sum(outcome.runs.values())
    print(f"{total} runs from {count} mutated documents in {elapsed:.0f} s; "
          f"slowest {outcome.slowest:.2f} s; failures: {len(outcome.failures)}")  # fmt: skip
    for name, n in outcome.unnoticed.most_common():
        print(f"verify passed {n} mutation(s) of {name}")
    for failure in outcome.failures[:20]:
        print("FAIL", *failure)
    sys.exit(1 if outcome.failures else 0)


if __name__ == "__main__":
    main()
