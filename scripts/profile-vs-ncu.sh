#!/usr/bin/env bash
# scripts/profile-vs-ncu.sh: `cudalab profile` against Nsight Compute on any CUDA program.
# Options, outputs and exit statuses: scripts/cudalab_scripts/profile_vs_ncu.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.profile_vs_ncu "$@"
