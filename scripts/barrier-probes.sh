#!/usr/bin/env bash
# scripts/barrier-probes.sh: what each barrier misuse of lab 07 does, alone and under synccheck.
# Options, outputs and exit statuses: scripts/cudalab_scripts/barrier_probes.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.barrier_probes "$@"
