#!/usr/bin/env bash
# scripts/nsys.sh: Nsight Systems timeline of a lab.
# Options, outputs and exit statuses: scripts/cudalab_scripts/nsys.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.nsys "$@"
