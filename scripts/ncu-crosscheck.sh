#!/usr/bin/env bash
# scripts/ncu-crosscheck.sh [--build DIR] [--out DIR] [--lab LAB] [--size N]
# Compares cudalab's in-process counters with Nsight Compute's for every kernel variant of
# the given labs (default: every lab, at 1M or at the lab's default size where 1M is out of
# its range): global requests and sectors, and where the lab collects them instructions,
# branches and shared-memory instructions, must be equal.
# Exit 0 equal, 1 different, 77 skipped (no ncu or no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/ncu_crosscheck.py "$@"
