#!/usr/bin/env bash
# scripts/bench.sh: the benchmarks behind docs/benchmarks.md.
# Options, outputs and exit statuses: scripts/cudalab_scripts/bench.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.bench "$@"
