#!/usr/bin/env bash
# scripts/check-prose-figures.sh [--root DIR] [DOC.md ...]: every measured figure the docs quote in
# their prose comes from committed data, or from a row of the derived.csv beside it.
# Rules and exit statuses: scripts/cudalab_scripts/prose_figures.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.prose_figures "$@"
