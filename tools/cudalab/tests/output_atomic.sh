#!/usr/bin/env bash
# output_atomic.sh <cudalab> [expected-exit]: `run --output` writes the whole CSV under its
# name and leaves no temporary file behind.
set -u
tool=$1 want=${2:-0}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tool" run 01 --size 1M --repeat 2 --output "$dir/out01.csv"
code=$?
[ "$code" -eq "$want" ] || { echo "output_atomic: exit $code, expected $want"; exit 1; }
head -1 "$dir/out01.csv" | grep -q '^lab,variant,role' || { echo "output_atomic: no CSV header"; exit 1; }
rows=$("$(dirname "$0")/../../../scripts/labs.py" "$tool" variants 01 | wc -l)
[ "$(wc -l <"$dir/out01.csv")" -eq $((rows + 1)) ] || { echo "output_atomic: expected $rows rows"; exit 1; }
leftovers=$(find "$dir" -name '.out01.csv.*' | wc -l)
[ "$leftovers" -eq 0 ] || { echo "output_atomic: temporary file left behind"; exit 1; }
echo "output_atomic: ok"
