#!/usr/bin/env bash
# scripts/test.sh: sets up, builds (release) and runs the tests.
# Every CPU test always; the GPU tests too when a CUDA device is present (they need one).
# Fails on any failed test.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
[ "${CI:-}" = "true" ] && preset=ci
scripts/setup.sh "$preset"
jobs=$(nproc 2>/dev/null || echo 2)
# On a GPU machine some "cpu" tests also probe the counters, and concurrent CUPTI sessions in
# several processes interfere (seen on the H100 with -j8): run them one at a time there.
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then jobs=1; fi
ctest --preset "$( [ "$preset" = ci ] && echo ci || echo cpu )" -j "$jobs"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "test.sh: a GPU is present: running the gpu tests too"
  ctest --test-dir "build/$preset" -L gpu --output-on-failure --no-tests=error
else
  echo "test.sh: no GPU here: gpu tests not run (scripts/gpu-suite.sh runs them on a GPU machine)"
fi
