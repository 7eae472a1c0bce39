#!/usr/bin/env bash
# scripts/debug.sh: cuda-gdb stopped inside a variant's kernel.
# Options, outputs and exit statuses: scripts/cudalab_scripts/debug.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.debug "$@"
