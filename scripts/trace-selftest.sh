#!/usr/bin/env bash
# scripts/trace-selftest.sh [--build DIR] [--out DIR]: the memory tracer's one-shot check on a GPU
# machine, with every diagnostic kept, so that one call shows what fails and why.
#   1. doctor's tracer line; which libsanitizer-public.so the tracer loads; nvdisasm's version;
#   2. run --trace on lab 04's aos_float3 and aos_float3_staged and lab 05's sequential
#      reduction, each with its raw trace (trace.jsonl), the traced child's log, the module code
#      it saved and that code's SASS with line info (to check pc offsets by eye);
#   3. --lines on aos_float3 and aos_float3_staged;
#   4. the counters-refused fallback (CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM) of run and check.
# Every traced command runs under a deadline: cudalab's own (CUDALAB_TRACE_TIMEOUT_S=50 kills the
# traced child and keeps its folder) inside `timeout -k 5 60`, so a hang costs at most a minute;
# CUDALAB_TRACE_DEBUG=1 makes the tracer log each stage to the child's log (<name>-files/child.log),
# so a run that stopped shows the last stage it reached.
# Logs go to DIR (default trace-selftest); scripts/gpu-suite.sh runs this and packs them.
# Exit: 0 when every step passed, 1 otherwise, 77 without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
build=build/release out=trace-selftest
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "trace-selftest.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
tool=$build/tools/cudalab/cudalab
tracer=$build/instrumentation/tracer/libcudalab_tracer.so
failed=0
nvidia-smi -L >/dev/null 2>&1 || { echo "trace-selftest: no GPU" | tee "$out/summary.txt"; exit 77; }
: >"$out/summary.txt"

step() {  # step <name> <command...>: output in <name>.log, result in summary.txt
  local name=$1; shift
  "$@" >"$out/$name.log" 2>&1
  local code=$?
  printf '%-28s %s\n' "$name" "$([ $code -eq 0 ] && echo ok || echo "FAILED (exit $code)")" |
    tee -a "$out/summary.txt"
  [ $code -eq 0 ] || failed=1
}

# Keeps the traced child's folder and copies it into $out/<name>-files.
traced() {  # traced <name> <cudalab args...>
  local name=$1; shift
  local marker
  marker=$(mktemp)
  CUDALAB_TRACE_KEEP=1 CUDALAB_TRACE_DEBUG=1 CUDALAB_TRACE_TIMEOUT_S=50 \
    timeout -k 5 60 "$tool" "$@" >"$out/$name.log" 2>&1
  local code=$?
  [ $code -eq 124 ] || [ $code -eq 137 ] && echo "(killed by timeout after 60 s)" >>"$out/$name.log"
  local kept
  kept=$(sed -n 's/^cudalab: trace files kept in //p' "$out/$name.log" | tail -1)
  # Killed from outside, cudalab printed no folder: take the newest one made during this step.
  if [ -z "$kept" ]; then
    kept=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'cudalab-trace-*' -newer "$marker" \
             -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)
  fi
  rm -f "$marker"
  if [ -n "$kept" ] && [ -d "$kept" ]; then
    mkdir -p "$out/$name-files"
    cp -r "$kept"/. "$out/$name-files/"
    for cubin in "$out/$name-files"/module-*.cubin; do
      [ -f "$cubin" ] && "$nvdisasm" --print-line-info "$cubin" >"$cubin.sass" 2>&1
    done
    rm -rf "$kept"
  fi
  printf '%-28s %s\n' "$name" "$([ $code -eq 0 ] && echo ok || echo "FAILED (exit $code)")" |
    tee -a "$out/summary.txt"
  [ $code -eq 0 ] || failed=1
}

nvdisasm=$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)
step doctor "$tool" doctor
{
  echo "tracer: $tracer"
  echo "with the machine's Sanitizer library first:"
  LD_LIBRARY_PATH=/usr/local/cuda/compute-sanitizer:${LD_LIBRARY_PATH:-} ldd "$tracer"
  ls -l /usr/local/cuda/compute-sanitizer/libsanitizer-public.so* 2>&1
  "$nvdisasm" --version
} >"$out/environment.log" 2>&1

traced trace-04 run 04 --variant aos_float3,aos_float3_staged,soa,offset --size 1048577 --trace
traced trace-04-json run 04 --variant aos_float3,aos_float3_staged --size 1048577 --trace \
  --format json --output "$out/trace-04.json"
traced trace-05 run 05 --size 1048577 --trace
traced lines-aos_float3 run 04 --variant aos_float3 --size 1048577 --lines
traced lines-aos_float3_staged run 04 --variant aos_float3_staged --size 1048577 --lines
CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM traced refused-run-04 run 04 --variant aos_float3,soa \
  --size 1048577
# The untouched exercise must FAIL (exit 1), graded from the trace.
CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM CUDALAB_TRACE_KEEP=1 CUDALAB_TRACE_DEBUG=1 \
  CUDALAB_TRACE_TIMEOUT_S=50 timeout -k 5 60 "$tool" check 04 >"$out/refused-check-04.log" 2>&1
code=$?
if [ $code -eq 1 ] && grep -q "graded from the memory tracer" "$out/refused-check-04.log"; then
  printf '%-28s ok\n' refused-check-04 | tee -a "$out/summary.txt"
else
  printf '%-28s FAILED (exit %s)\n' refused-check-04 "$code" | tee -a "$out/summary.txt"
  failed=1
fi
echo "trace-selftest: $([ $failed -eq 0 ] && echo PASSED || echo FAILED)" | tee -a "$out/summary.txt"
exit $failed
