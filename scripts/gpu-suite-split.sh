#!/usr/bin/env bash
# scripts/gpu-suite-split.sh <1|1a|1b|1g|2|3> [build-dir]: scripts/gpu-suite.sh in parts of under
# ten minutes each (a call's limit on the GPU machines):
#   part 1  two cards at once (measured on two H200s, 2026-11-27, before the graders moved out):
#           card 0: the GPU tests but the heavy ones and the graders, every lab's table, lab
#                   02's sweeps, Nsight Systems, cuda-gdb (the graders were 389 of the 565 s
#                   its tests took, which left the tables past ten minutes);
#           card 1: the heavy GPU tests (lab 07's sanitizer tests, the ncu cross-check, the
#                   tracer's tests: 503 s) and trace-selftest (23 s);
#   part 1g the graders' GPU tests, labelled grader (every lab's check, grader, wrong and right
#           ways: 389 s on one H200, 2026-11-27), one a card on every card CUDA sees;
#   part 2  the CPU tests, then the sanitizers over every lab (16 at a time);
#   part 3  the hardware's counts per line on every lab (--lines, a process a point and a kernel:
#           150 s on an H200, 2026-11-26), then labs 03 and 08's size sweeps (90 s) and the
#           benchmark (2.5 minutes), alone on the machine, so that nothing else runs beside
#           their timings.
#   parts 1a and 1b  part 1's two halves one after the other, for a machine with one GPU.
# Each card's logs go to $OUT/card0 and $OUT/card1 (parts 1g, 2 and 3: $OUT/card0):
# gpu-suite.tar.gz, summary.txt and the suite's output. Exit: 0 when every half passed.
set -uo pipefail
cd "$(dirname "$0")/.."
part=${1:-}
build=${2:-build/release}
out=${OUT:-$PWD/gpu-results}
# The heavy GPU tests by their labels (lab 07's sanitizer tests, the ncu cross-check, the tracer's
# tests); the tests labelled long (the per-line case on every lab) run in part 3: card 1 would
# run past ten minutes.
heavy_labels='^(sanitizer|ncu|trace)$'
long='^long$'

light() {  # light <card>: the GPU tests but the heavy ones and the graders, the tables, sweeps,
  # nsys and cuda-gdb
  half "$1" '^(doctor|device|device-json|ctest-gpu|run-.*|sweep-block|sweep-02-.*|nsys-.*|debug-.*)$' \
    GPU_SUITE_CTEST_LABELS_EXCLUDE="^(sanitizer|ncu|trace|long|grader)$"
}
graders() {  # graders: the graders' GPU tests, one a card on every card
  half all '^ctest-gpu$' GPU_SUITE_CTEST_LABELS='^grader$'
}
heavy() {  # heavy <card>: the heavy GPU tests and trace-selftest
  half "$1" '^(ctest-gpu|trace-selftest)$' GPU_SUITE_CTEST_LABELS="$heavy_labels" \
    GPU_SUITE_CTEST_LABELS_EXCLUDE="$long"
}

half() {  # half <card|all> <only-regex> [VAR=value...]: one gpu-suite.sh run on one card (all:
  # on every card CUDA sees, logged as card 0)
  local card=$1 only=$2; shift 2
  local cards=(CUDA_VISIBLE_DEVICES="$card")
  [ "$card" = all ] && { card=0; cards=(); }
  mkdir -p "$out/card$card"
  env "${cards[@]}" OUT="$out/card$card" GPU_SUITE_ONLY="$only" "$@" \
    scripts/gpu-suite.sh "$build" >"$out/card$card/stdout.txt" 2>&1
}
case $part in
  1)
    [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ] ||
      { echo "gpu-suite-split.sh: part 1 needs two GPUs (nvidia-smi -L)" >&2; exit 2; }
    light 0 &
    first=$!
    heavy 1 &
    second=$!
    wait $first; a=$?
    wait $second; b=$?
    for card in 0 1; do echo "== card $card"; cat "$out/card$card/summary.txt"; done
    [ $a -eq 0 ] && [ $b -eq 0 ]
    ;;
  1a | 1b)
    if [ "$part" = 1a ]; then light 0; else heavy 0; fi
    code=$?
    cat "$out/card0/summary.txt"
    exit $code
    ;;
  1g)
    graders
    code=$?
    cat "$out/card0/summary.txt"
    exit $code
    ;;
  2)
    half 0 '^(ctest-cpu|sanitize)$' GPU_SUITE_SANITIZE_JOBS=16
    code=$?
    cat "$out/card0/summary.txt"
    exit $code
    ;;
  3)
    half 0 '^(ctest-gpu|sweep-0[38]-sizes|bench)$' GPU_SUITE_CTEST_LABELS="$long"
    code=$?
    cat "$out/card0/summary.txt"
    exit $code
    ;;
  *) echo "usage: scripts/gpu-suite-split.sh <1|1a|1b|1g|2|3> [build-dir]" >&2; exit 2 ;;
esac
