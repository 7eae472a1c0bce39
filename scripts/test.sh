#!/usr/bin/env bash
# scripts/test.sh: sets up, builds (release) and runs the tests.
# Every CPU test always, side by side (-j: cores); the GPU tests too when a CUDA device is present,
# side by side over the cards: each holds one card (cmake/cudalab_helpers.cmake), from a CTest
# resource spec of the cards CUDA sees (scripts/cudalab_scripts/resources.py).
# Fails on any failed test.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
[ "${CI:-}" = "true" ] && preset=ci
scripts/setup.sh "$preset"
jobs=$(nproc 2>/dev/null || echo 2)
# CPU tests that reach the counters where a GPU is present hold the cupti lock, so -j is safe there.
ctest --preset "$( [ "$preset" = ci ] && echo ci || echo cpu )" -j "$jobs"
spec=$(mktemp)
trap 'rm -f "$spec"' EXIT
cards=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  cards=$(PYTHONPATH=scripts python3 -m cudalab_scripts.resources "$spec")
fi
if [ "$cards" -gt 0 ]; then
  echo "test.sh: $cards GPU(s): running the gpu tests, one a card at a time"
  ctest --test-dir "build/$preset" -L gpu --resource-spec-file "$spec" -j "$cards" --output-on-failure \
    --no-tests=error
else
  echo "test.sh: no GPU here: gpu tests not run (scripts/gpu-suite.sh runs them on a GPU machine)"
fi
