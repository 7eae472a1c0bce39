#!/usr/bin/env bash
# scripts/ncu.sh: Nsight Compute on one variant's kernels.
# Options, outputs and exit statuses: scripts/cudalab_scripts/ncu.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.ncu "$@"
