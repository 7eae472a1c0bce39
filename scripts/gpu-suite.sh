#!/usr/bin/env bash
# scripts/gpu-suite.sh [build-dir]: the whole GPU check in one call, for the GPU machine.
#
# From a build made elsewhere and carried here (default build/release; build/debug is used
# for the cuda-gdb step when present), it runs: doctor and device; every CPU and GPU test
# (CTest); each lab's `run` table and CSV; the compute-sanitizer checks; the ncu cross-check;
# and a short benchmark. Logs go to $OUT (or ./gpu-results): everything is packed into
# gpu-suite.tar.gz beside summary.txt, because the device tool returns only a few files.
#
# It fails if any test fails OR SKIPS: on a GPU machine a skipped GPU test is a failure.
#
# With seven labs the whole suite runs past a 10-minute limit on one command: split it in two
# calls with GPU_SUITE_SKIP, e.g. first GPU_SUITE_SKIP="sanitize bench trace-selftest", then
# GPU_SUITE_SKIP="ctest-cpu ctest-gpu" (each call packs its own gpu-suite.tar.gz).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
work=$(mktemp -d)
logs=$work/gpu-suite
mkdir -p "$logs"
tool=$build/tools/cudalab/cudalab
summary=$logs/summary.txt
failed=0

skip=" ${GPU_SUITE_SKIP:-} "  # e.g. GPU_SUITE_SKIP="sanitize bench" for a quick pass
pack() { tar -C "$work" -czf "$out/gpu-suite.tar.gz" gpu-suite; cp "$summary" "$out/summary.txt"; }
step() {  # step <name> <command...>: runs, logs to <name>.log, records the result
  local name=$1; shift
  case "$skip" in *" $name "*) echo "$name: skipped (GPU_SUITE_SKIP)" | tee -a "$summary"; return 0 ;; esac
  local start=$SECONDS
  "$@" >"$logs/$name.log" 2>&1
  local code=$?
  pack  # after every step, so a run cut short still returns its logs
  printf '%-34s %s (%ss)\n' "$name" "$([ $code -eq 0 ] && echo ok || echo "FAILED (exit $code)")" \
    "$((SECONDS - start))" | tee -a "$summary"
  [ $code -eq 0 ] || failed=1
  return $code
}

# nsys stats needs Debian's libdw1/libelf1, carried in .nsys-libs (scripts/fetch-nsys-libs.sh).
if [ -d .nsys-libs ]; then
  for d in .nsys-libs/usr/lib/x86_64-linux-gnu .nsys-libs/lib/x86_64-linux-gnu; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$PWD/$d:${LD_LIBRARY_PATH:-}"
  done
fi

{
  echo "cudalab gpu-suite $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
} | tee "$summary"

[ -x "$tool" ] || { echo "gpu-suite: $tool not found: build first (scripts/setup.sh) and carry $build" | tee -a "$summary"; exit 1; }

step doctor "$tool" doctor
step device "$tool" device
step device-json "$tool" device --format json

# All tests. CTest prints skipped tests as "Not Run" / "***Skipped": any of them fails the suite.
ctest_run() {
  local label=$1
  ctest --test-dir "$build" -L "$label" --output-on-failure --no-tests=error \
    --timeout 600 --output-junit "$logs/ctest-$label.xml"
}
step ctest-cpu ctest_run cpu
step ctest-gpu ctest_run gpu
for label in cpu gpu; do
  if grep -Eq "Skipped|Not Run" "$logs/ctest-$label.log"; then
    echo "ctest-$label: SKIPPED tests (a failure on the GPU machine):" | tee -a "$summary"
    grep -E "Skipped|Not Run" "$logs/ctest-$label.log" | tee -a "$summary"
    failed=1
  fi
  grep -E "tests passed|tests failed" "$logs/ctest-$label.log" | tee -a "$summary"
done

# Each lab's table (what the READMEs quote).
for lab in $("$tool" list | grep -E '^[0-9][0-9]-' | awk '{print $1}'); do
  step "run-$lab" "$tool" run "$lab"
done
# Lab 04's table above holds its offset and stride sweeps; lab 05's block sweep for plot.py.
if "$tool" list 05 >/dev/null 2>&1; then
  step sweep-block "$tool" run 05 --block 32..1024 --format csv --output "$logs/05-block.csv"
fi

# Lab 02's sweeps for its README and plot.py: copies across sizes, the wrong and the right timer,
# allocation against a kernel (32 runs each, for the spread), and the timeline of the streams.
if "$tool" list 02 >/dev/null 2>&1; then
  step sweep-02-transfers "$tool" run 02 --variant pageable_h2d,pinned_h2d,pageable_d2h,pinned_d2h \
    --size 4K,64K,1M,16M,64M,256M --repeat 32 --no-counters --format csv --output "$logs/02-transfers.csv"
  step sweep-02-timers "$tool" run 02 --variant host_timer_no_sync,event_timed --size 1M,16M,256M \
    --repeat 32 --no-counters --format csv --output "$logs/02-timers.csv"
  step sweep-02-alloc "$tool" run 02 --variant alloc_free,event_timed --size 64K,1M,16M,256M \
    --repeat 32 --no-counters --format csv --output "$logs/02-alloc.csv"
  [ -x scripts/nsys.sh ] && step nsys-02-streams scripts/nsys.sh --build "$build" --out "$logs/nsys-02" \
    --repeat 5 02-memory-spaces one_stream,overlap_streams
fi
# The memory tracer's one-shot diagnostics (raw traces, SASS with line info, the fallback).
[ -x scripts/trace-selftest.sh ] && step trace-selftest scripts/trace-selftest.sh --build "$build" --out "$logs/trace-selftest"
# Sanitizers and the benchmark (the ncu cross-check and nsys runs are gpu CTests above).
[ -x scripts/sanitize.sh ] && step sanitize scripts/sanitize.sh --build "$build" --out "$logs/sanitize"
[ -x scripts/bench.sh ] && step bench scripts/bench.sh --build "$build" --out "$logs/bench"
# cuda-gdb on the debug build (-g -G), when it was carried too (the tool alone is enough).
if [ -x build/debug/tools/cudalab/cudalab ]; then
  step debug-lab01 scripts/debug.sh --build build/debug --check 01-thread-indexing matrix_x_rows
  step debug-lab04 scripts/debug.sh --build build/debug 04-coalescing aos_float3
  step debug-lab07 labs/07-debugging/tests/debug/cuda_gdb_swapped_index.sh --build build/debug
fi

echo "tables: $(ls "$logs"/run-*.log 2>/dev/null | wc -l) labs; logs packed in gpu-suite.tar.gz" | tee -a "$summary"
pack
for lab_log in "$logs"/run-*.log; do  # the tables also go to stdout, for a quick look
  echo "== $(basename "$lab_log" .log)"; head -c 6000 "$lab_log"
done
rm -rf "$work"
echo "gpu-suite: $([ $failed -eq 0 ] && echo PASSED || echo FAILED)"
exit $failed
