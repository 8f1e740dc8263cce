#!/usr/bin/env bash
# Every benchmark's quick mode, as CI runs it: each bench/*.py, new ones included, runs with
# --quick and must exit 0 having printed its figures on standard output (no timing is
# asserted), so none can break unnoticed (issue 38). A helper only imported by the others
# runs too: it must take --quick and print its own figures (bench/floor.py does). A quick
# run takes seconds; one that hangs (a server that never answers) is stopped after five
# minutes.
# Usage: bench/quick.sh [PYTHON]   (default .venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-.venv/bin/python}
for script in bench/*.py; do
    echo "=== $script --quick"
    start=$SECONDS
    figures=$(timeout 300 "$python" "$script" --quick </dev/null)
    printf '%s\n' "$figures"
    if [ -z "$figures" ]; then
        echo "$script --quick printed no figures" >&2
        exit 1
    fi
    echo "=== $script: $((SECONDS - start)) s"
done
