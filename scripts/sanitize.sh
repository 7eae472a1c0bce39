#!/usr/bin/env bash
# scripts/sanitize.sh: compute-sanitizer over the labs' variants.
# Options, outputs and exit statuses: scripts/cudalab_scripts/sanitize.py (or --help).
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.sanitize "$@"
