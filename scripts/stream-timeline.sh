#!/usr/bin/env bash
# scripts/stream-timeline.sh: one launch's copies and kernels on their streams, from an Nsight
# Systems report. Options, outputs and exit statuses: scripts/cudalab_scripts/stream_timeline.py.
scripts=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$scripts${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m cudalab_scripts.stream_timeline "$@"
