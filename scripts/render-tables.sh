#!/usr/bin/env bash
# scripts/render-tables.sh [--check] [DOC.md ...]: the docs' measured tables, rendered from their
# committed data. Options, markers and exit statuses: scripts/cudalab_scripts/tables.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.tables "$@"
