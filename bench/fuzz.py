"""The nightly fuzz run of issue 11: COUNT mutated documents through the real commands
(tests/fuzzing.py), with the tally of outcomes per entry point and every failure's seed.

Usage: python bench/fuzz.py [COUNT] [SEED] [--quick]   (default 100000, 7; --quick: CI's
run, QUICK documents, so the script cannot rot unnoticed)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import Table, run  # noqa: E402

QUICK = 30  # mutated documents in CI's run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=100_000, help="mutated documents")
    parser.add_argument("seed", nargs="?", type=int, default=7, help="the first mutation's seed")
    parser.add_argument("--quick", action="store_true", help=f"CI's run: {QUICK} documents")
    args = parser.parse_args()
    count, seed = (QUICK if args.quick else args.count), args.seed
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
