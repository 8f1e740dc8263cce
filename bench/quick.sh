#!/usr/bin/env bash
# Every benchmark's quick mode, as CI runs it: each bench/*.py, new ones included, runs with
# --quick and must exit 0 having printed its figures on standard output (no timing is
# asserted), so none can break unnoticed (issue 38). A helper only imported by the others
# runs too: it must take --quick and print its own figures (bench/floor.py does). A quick
# run takes seconds; one that hangs (a server that never answers) is stopped after five
# minutes. Two run at a time, one a core (their figures mean little in a quick run anyway),
# and their outputs are printed in the scripts' order.
# Usage: bench/quick.sh [PYTHON]   (default .venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
one() {
    local script=$1 name start
    name=$(basename "$script")
    start=$SECONDS
    if timeout 300 "$python" "$script" --quick </dev/null >"$out/$name.txt" 2>"$out/$name.err"; then
        echo "$((SECONDS - start))" >"$out/$name.s"
    else
        echo "$script --quick failed with exit status $?" >>"$out/$name.err"
    fi
}
scripts=(bench/*.py)
for script in "${scripts[@]}"; do
    while (( $(jobs -rp | wc -l) >= 2 )); do wait -n || true; done
    one "$script" &
done
wait
failed=0
for script in "${scripts[@]}"; do
    name=$(basename "$script")
    echo "=== $script --quick"
    cat "$out/$name.txt"
    cat "$out/$name.err" >&2
    if [ ! -f "$out/$name.s" ]; then
        failed=1
    elif [ ! -s "$out/$name.txt" ]; then
        echo "$script --quick printed no figures" >&2
        failed=1
    else
        echo "=== $script: $(cat "$out/$name.s") s"
    fi
done
exit "$failed"
