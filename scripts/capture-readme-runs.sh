#!/usr/bin/env bash
# scripts/capture-readme-runs.sh [BUILD] [--out DIR] [--only TEXT[,TEXT]] [--list]: on a GPU
# machine, the tool's outputs that the docs show verbatim, with their provenance, under $OUT (or
# DIR) as the repository lays them out. The commands, options and exit statuses:
# scripts/cudalab_scripts/capture_runs.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.capture_runs "$@"
