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
# With eight labs the whole suite is about 25 minutes of GPU time, past a 10-minute limit on one
# command. Measured on H100s (2026-11-25): the GPU tests without lab 07's sanitizer tests, the
# ncu cross-check and the tracer's tests 5.4 min, and those 7.6 min (the cross-check alone
# 4.5); the tables, sweeps, Nsight Systems run and cuda-gdb steps 2.5 min; trace-selftest 20 s;
# the sanitizers 8 min, 10 at a time. Split it with GPU_SUITE_SKIP (step names), GPU_SUITE_ONLY
# (a regex of the steps to run), GPU_SUITE_CTEST_INCLUDE / GPU_SUITE_CTEST_EXCLUDE (ctest -R / -E
# regexes on the GPU tests' names) and GPU_SUITE_CTEST_LABELS / GPU_SUITE_CTEST_LABELS_EXCLUDE
# (ctest -L / -LE regexes on their labels, beside gpu). The GPU tests run side by side over the
# cards CUDA sees, one a card (a CTest resource spec; CUDA_VISIBLE_DEVICES picks the cards).
# scripts/gpu-suite-split.sh does it on a machine with two GPUs in three calls of under ten
# minutes: part 1 the tests and tables on both cards at once, part 2 the sanitizers, part 3 the
# matrix products' size sweeps (90 s) and the benchmark (2.5 min).
# The sanitizers slow the other card's tests (lab 07's whole-lab test: 12 s alone, 62 s beside
# them), so keep timed work away from them. A run stopped by a signal still packs its logs.
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
# Bad settings stop the suite before any work, with one line and exit 2.
bad_setting() { echo "gpu-suite: $1" >&2; exit 2; }
if [ -n "${GPU_SUITE_ONLY:-}" ]; then
  [[ "" =~ $GPU_SUITE_ONLY ]]
  [ $? -ne 2 ] || bad_setting "GPU_SUITE_ONLY='$GPU_SUITE_ONLY' is not a valid regular expression"
fi
sanitize_jobs=${GPU_SUITE_SANITIZE_JOBS:-8}
case $sanitize_jobs in
  '' | *[!0-9]* | 0 | 0*) bad_setting "GPU_SUITE_SANITIZE_JOBS='$sanitize_jobs' must be a whole number from 1 to 64" ;;
esac
[ ${#sanitize_jobs} -le 2 ] && [ "$sanitize_jobs" -le 64 ] ||
  bad_setting "GPU_SUITE_SANITIZE_JOBS='$sanitize_jobs' must be a whole number from 1 to 64 (each job is a compute-sanitizer process on the GPU)"
pack() { tar -C "$work" -czf "$out/gpu-suite.tar.gz" gpu-suite; cp "$summary" "$out/summary.txt"; }
step() {  # step <name> <command...>: runs, logs to <name>.log, records the result
  local name=$1; shift
  step_names="$step_names $name"
  case "$skip" in *" $name "*) echo "$name: skipped (GPU_SUITE_SKIP)" | tee -a "$summary"; return 0 ;; esac
  if [ -n "${GPU_SUITE_ONLY:-}" ] && ! [[ $name =~ $GPU_SUITE_ONLY ]]; then
    echo "$name: not in GPU_SUITE_ONLY" >>"$summary"
    return 0
  fi
  steps_run=$((steps_run + 1))
  local start=$SECONDS
  "$@" >"$logs/$name.log" 2>&1 &  # in the background, so that a TERM reaches the trap below
  running=$!
  wait "$running"
  local code=$?
  pack  # after every step, so a run cut short still returns its logs
  printf '%-34s %s (%ss)\n' "$name" "$([ $code -eq 0 ] && echo ok || echo "FAILED (exit $code)")" \
    "$((SECONDS - start))" | tee -a "$summary"
  [ $code -eq 0 ] || failed=1
  return $code
}

running=""
steps_run=0 step_names=""
on_signal() {  # a timeout: stop the step, keep its log, pack what there is
  [ -n "$running" ] && kill -TERM "$running" 2>/dev/null
  echo "gpu-suite: stopped by a signal during a step; its log is partial" >>"$summary"
  pack
  exit 124
}
trap on_signal TERM INT

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
ctest_run() {  # CPU tests side by side; GPU tests one a card (they time and read counters)
  local label=$1 jobs
  jobs=$(nproc)
  local select=()
  if [ "$label" = gpu ]; then
    [ -n "${GPU_SUITE_CTEST_INCLUDE:-}" ] && select+=(-R "$GPU_SUITE_CTEST_INCLUDE")
    [ -n "${GPU_SUITE_CTEST_EXCLUDE:-}" ] && select+=(-E "$GPU_SUITE_CTEST_EXCLUDE")
    [ -n "${GPU_SUITE_CTEST_LABELS:-}" ] && select+=(-L "$GPU_SUITE_CTEST_LABELS")
    [ -n "${GPU_SUITE_CTEST_LABELS_EXCLUDE:-}" ] && select+=(-LE "$GPU_SUITE_CTEST_LABELS_EXCLUDE")
    jobs=$(PYTHONPATH=scripts python3 -m cudalab_scripts.resources "$work/gpus.json") || return 1
    [ "$jobs" -gt 0 ] || { echo "gpu-suite: no GPU that CUDA can see (nvidia-smi -L, CUDA_VISIBLE_DEVICES)"; return 1; }
    select+=(--resource-spec-file "$work/gpus.json")
  fi
  ctest --test-dir "$build" -L "$label" "${select[@]}" -j "$jobs" --output-on-failure \
    --no-tests=error --timeout 600 --output-junit "$logs/ctest-$label.xml"
}
step ctest-cpu ctest_run cpu
step ctest-gpu ctest_run gpu
for label in cpu gpu; do
  [ -f "$logs/ctest-$label.log" ] || continue  # the step did not run (GPU_SUITE_SKIP or _ONLY)
  if grep -Eq "Skipped|Not Run" "$logs/ctest-$label.log"; then
    echo "ctest-$label: SKIPPED tests (a failure on the GPU machine):" | tee -a "$summary"
    grep -E "Skipped|Not Run" "$logs/ctest-$label.log" | tee -a "$summary"
    failed=1
  fi
  grep -E "tests passed|tests failed" "$logs/ctest-$label.log" | tee -a "$summary"
done

# Each lab's table (what the READMEs quote).
for lab in $(scripts/labs.py "$tool" ids); do
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
  step run-02-coeffs "$tool" run 02 --variant coeffs_global,coeffs_constant,constant_divergent,coeffs_shared \
    --view full --repeat 32
  step run-02-constant "$tool" run 02 --variant coeffs_global,coeffs_constant,constant_divergent,coeffs_shared \
    --metrics constant --view full
  [ -x scripts/nsys.sh ] && step nsys-02-streams scripts/nsys.sh --build "$build" --out "$logs/nsys-02" \
    --repeat 5 02-memory-spaces one_stream,overlap_streams
fi
# Labs 03 and 08's size sweeps for their READMEs and plot.py: TFLOP/s of each kernel, cuBLAS
# and (lab 03, up to 2048) the CPU, 32 runs a point for the spread.
if "$tool" list 03 >/dev/null 2>&1; then
  step sweep-03-sizes "$tool" run 03 --variant naive,tiled,cublas,cpu_naive --sweep tile=8,16,32 \
    --size 256,512,1024,2048,4096,8192 --repeat 32 --no-counters --format csv --output "$logs/03-sizes.csv"
fi
if "$tool" list 08 >/dev/null 2>&1; then
  step sweep-08-sizes "$tool" run 08 \
    --variant pad_to_64,coarse_1d,register_2d,vectorized,warp_tiled,cp_async_pipeline,cp_async_tuned,cublas \
    --size 256,512,1024,2048,4096,8192 --repeat 32 --no-counters --format csv --output "$logs/08-sizes.csv"
fi
# Shared memory's two witnesses against the model, every lab with shared memory (docs/counters.md).
step shared-witness env OUT="$logs" scripts/shared-witness.sh "$build"
# The memory tracer's one-shot diagnostics (raw traces, SASS with line info, the fallback).
[ -x scripts/trace-selftest.sh ] && step trace-selftest scripts/trace-selftest.sh --build "$build" --out "$logs/trace-selftest"
# Sanitizers and the benchmark (the ncu cross-check and nsys runs are gpu CTests above).
[ -x scripts/sanitize.sh ] && step sanitize scripts/sanitize.sh --build "$build" --out "$logs/sanitize" \
  --jobs "$sanitize_jobs"  # 88 variants x 4 tools: 4 at a time took over 10 minutes
# Its section 7 (lab 08 against cuBLAS by size) is the sweep-08-sizes step above.
[ -x scripts/bench.sh ] && step bench scripts/bench.sh --build "$build" --out "$logs/bench" \
  --sections 1,2,3,4,5,6
# gdb_session <file.gdb> <cudalab args...>: cuda-gdb in batch mode on the debug tool with the
# lesson's file as shipped; passes when the breakpoint was hit and focus switched to the
# README's thread.
gdb_session() {
  local file=$1; shift
  cuda-gdb -batch -x "$file" --args build/debug/tools/cudalab/cudalab "$@" 2>&1 |
    tee "$work/session.log"
  grep -Eq "hit Breakpoint 1|Switching focus to CUDA kernel" "$work/session.log" &&
    grep -Eq '^\$1 = ' "$work/session.log"
}
# cuda-gdb on the debug build (-g -G), when it was carried too (the tool alone is enough).
if [ -x build/debug/tools/cudalab/cudalab ]; then
  step debug-lab01 scripts/debug.sh --build build/debug --check 01-thread-indexing matrix_x_rows
  step debug-lab04 scripts/debug.sh --build build/debug 04-coalescing aos_float3
  step debug-lab07 labs/07-debugging/tests/debug/cuda_gdb_swapped_index.sh --build build/debug
  # The READMEs' "Step through it" sessions of labs 03, 06 and 08, as written there.
  step debug-lab03 gdb_session labs/03-shared-memory-tiling/tiled_unguarded.gdb \
    run 03 --variant tiled_unguarded --size 17 --repeat 1 --warmup 0 --no-counters
  step debug-lab06 gdb_session labs/06-bank-conflicts/swizzled.gdb \
    run 06 --variant swizzled --size 40 --repeat 1 --warmup 0 --no-counters
  step debug-lab08 gdb_session labs/08-register-tiling/register_2d.gdb \
    run 08 --variant register_2d --size 130 --repeat 1 --warmup 0 --no-counters
fi

if [ -n "${GPU_SUITE_ONLY:-}" ] && [ "$steps_run" -eq 0 ]; then
  echo "gpu-suite: GPU_SUITE_ONLY='$GPU_SUITE_ONLY' matched no step; the steps:$step_names" >&2
  rm -rf "$work"
  exit 2
fi
echo "tables: $(ls "$logs"/run-*.log 2>/dev/null | wc -l) labs; logs packed in gpu-suite.tar.gz" | tee -a "$summary"
pack
for lab_log in "$logs"/run-*.log; do  # the tables also go to stdout, for a quick look
  echo "== $(basename "$lab_log" .log)"; head -c 6000 "$lab_log"
done
rm -rf "$work"
echo "gpu-suite: $([ $failed -eq 0 ] && echo PASSED || echo FAILED)"
exit $failed
