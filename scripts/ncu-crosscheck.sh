#!/usr/bin/env bash
# scripts/ncu-crosscheck.sh [--build DIR] [--out DIR] [--lab LAB] [--size N]
# Compares cudalab's in-process counters with Nsight Compute's for every kernel variant of
# the given labs (default 01, 04, 05 and 06): global requests and sectors, and where the lab
# collects them instructions and branches, must be equal.
# Exit 0 equal, 1 different, 77 skipped (no ncu or no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/ncu_crosscheck.py "$@"
