#!/usr/bin/env bash
# Run the browser tests N times in a row (default 20) and stop at the first failure.
#   tests/browser/repeat.sh [N] [--load] [test paths and pytest args...]
# With no test path the whole tests/browser folder runs.
# --load keeps both cores busy with two `yes` processes while the runs go on, to check that
# the tests wait on state, never on time. Prints one line per run and a summary.
set -uo pipefail
cd "$(dirname "$0")/../.."
n="${1:-20}"; shift || true
load=0
if [[ "${1:-}" == "--load" ]]; then load=1; shift; fi
py="${PYTHON:-.venv/bin/python}"
targets=(tests/browser)
for arg in "$@"; do [[ "$arg" != -* ]] && targets=(); done
pids=()
if (( load )); then
  for _ in 1 2; do yes > /dev/null & pids+=($!); done
  trap 'kill "${pids[@]}" 2>/dev/null' EXIT
fi
mkdir -p tests/artifacts
passed=0
for ((i = 1; i <= n; i++)); do
  start=$(date +%s)
  if "$py" -m pytest "${targets[@]}" -x -q -p no:cacheprovider -s "$@" > "tests/artifacts/repeat-$i.log" 2>&1; then
    passed=$((passed + 1))
    echo "run $i/$n: passed ($(( $(date +%s) - start )) s)"
  else
    echo "run $i/$n: FAILED ($(( $(date +%s) - start )) s), log: tests/artifacts/repeat-$i.log"
    tail -n 30 "tests/artifacts/repeat-$i.log"
    echo "$passed of $n runs passed before the first failure (load: $load)"
    exit 1
  fi
done
echo "all $n runs passed in a row (load: $load)"
