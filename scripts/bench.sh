#!/usr/bin/env bash
# scripts/bench.sh [--build DIR] [--out DIR] [--sections LIST] [--model-only]: the benchmarks behind the numbers
# in docs/ and the lab READMEs (never run while counters are collected, except where that is
# the point).
#   1. in-process counters vs ncu: wall time for the same counts of lab 01;
#   2. NVTX cost with no tool attached against the lab's kernel time;
#   3. large sizes: lab 04 at 2^26 float3 elements, lab 05 at 2^28 floats, without counters;
#      lab 04's particle pair at 2^26 particles and its AoS -> SoA speedup; lab 06 at
#      8192 x 8192 floats beside its copy kernel, and its stride sweep.
#   4. the model's predictions without a GPU: each lab's default run, full sweeps, 2^24;
#   5. the memory tracer's cost: lab 04 at its default size, untraced without counters, with
#      in-process counters, and with --trace (one traced launch a point in a second process).
#   6. the SASS-level shared-memory witness's cost: labs 04 and 06 at their default sizes with
#      the data stage's shared counters alone, and with the SASS-level ones the kit grades by.
# --sections picks sections by number (--sections 3,6; default all six), so that a part can run
# within a time limit or on a second GPU; --model-only is --sections 4 (no GPU needed).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/release out=bench-results sections=1,2,3,4,5,6
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --model-only) sections=4; shift ;;
    --sections) [ $# -ge 2 ] || { echo "bench.sh: --sections needs a list (--sections 3,5)" >&2; exit 2; }
      sections=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ $sections =~ ^[1-6](,[1-6])*$ ]] ||
  { echo "bench.sh: --sections '$sections' must be section numbers 1 to 6, comma-separated" >&2; exit 2; }
want() { [[ ",$sections," == *",$1,"* ]]; }  # want <n>: section n was asked for
mkdir -p "$out"
: >"$out/bench-runs.log"
tool=$build/tools/cudalab/cudalab
memory=$("$tool" metrics --set memory | awk '{print $2}' | paste -sd,)

wall() {  # wall <seconds-var> <command...>: wall-clock seconds of the command
  local var=$1; shift
  local start end
  start=$(date +%s.%N)
  "$@" >>"$out/bench-commands.log" 2>&1
  end=$(date +%s.%N)
  printf -v "$var" '%.2f' "$(awk -v a="$start" -v b="$end" 'BEGIN{print b - a}')"
}

model_predictions() {
  echo "== 4. the model's predictions without a GPU (wall time, median of 5; $(nproc) cores)"
  # CUDA_VISIBLE_DEVICES= hides any GPU, so the run prints predictions only and exits 3; any
  # other exit (a refusal, a crash) is a failure of the benchmark.
  predict_once() {
    local start end code=0
    start=$(date +%s.%N)
    CUDA_VISIBLE_DEVICES= "$tool" "$@" >/dev/null 2>>"$out/bench-commands.log" || code=$?
    end=$(date +%s.%N)
    if [ "$code" -ne 3 ]; then echo "bench.sh: cudalab $* exited $code" >&2; exit 1; fi
    awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f\n", b - a}'
  }
  local runs=(
    "run 01"
    "run 04"
    "run 05"
    "run 06"
    "run 06 --size 8192 --variant shared_stride --sweep 1..32"
    "run 01 --size 2^24"
    "run 04 --size 2^24"
    "run 04 --variant offset --sweep 0..32"
    "run 04 --variant stride --sweep 1..32"
    "run 04 --size 1G"
    "run 01 --variant grid_ceil_div,grid_stride,matrix_x_cols --size 2^10..2^36"
  )
  for r in "${runs[@]}"; do
    read -ra args <<<"$r"
    predict_once "${args[@]}" >/dev/null  # warm the page cache
    local times
    times=$(for _ in 1 2 3 4 5; do predict_once "${args[@]}"; done | sort -n)
    printf '  cudalab %-42s %s s  (runs: %s)\n' "$r" "$(sed -n 3p <<<"$times")" "$(paste -sd' ' <<<"$times")"
  done
}
if want 1; then
echo "== 1. counters in-process vs ncu (lab 04 at 1M: every variant and sweep point, memory set, one launch each)"
# One untimed run first (the first process after a while pays for loading the driver and
# libraries), then the median of three runs of each command.
run04=(run 04 --size 1M --sweep full --warmup 0 --repeat 1)
"$tool" "${run04[@]}" --no-counters >>"$out/bench-commands.log" 2>&1 || true
median3() {  # median3 <var> <command...>
  local var=$1; shift
  local a b c
  wall a "$@"; wall b "$@"; wall c "$@"
  printf -v "$var" '%s' "$(printf '%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p)"
  echo "  $* : $a $b $c s" | cut -c1-160 >>"$out/bench-runs.log"
}
median3 t_plain "$tool" "${run04[@]}" --no-counters
median3 t_cudalab "$tool" "${run04[@]}" --metrics memory
CUDALAB_COUNTER_TRACE=1 "$tool" "${run04[@]}" --metrics memory 2>&1 >/dev/null | grep -A20 "by Range Profiler step" || true
if command -v ncu >/dev/null; then
  median3 t_ncu ncu --metrics "$memory" "$tool" "${run04[@]}" --no-counters
  cat "$out/bench-runs.log"
  echo "median of 3 wall times:"
  echo "cudalab run --no-counters (the work itself): ${t_plain} s"
  echo "cudalab run (counters in-process):           ${t_cudalab} s"
  echo "ncu --metrics ... cudalab run --no-counters: ${t_ncu} s"
  awk -v p="$t_plain" -v c="$t_cudalab" -v n="$t_ncu" 'BEGIN {
    printf "wall time: ncu / in-process = %.1fx;  collection alone (minus the work): %.1fx\n", n / c, (n - p) / (c - p) }'
else
  echo "cudalab run --no-counters: ${t_plain} s;  with counters in-process: ${t_cudalab} s;  ncu not found: no comparison"
fi

fi

if want 2; then
echo "== 2. NVTX ranges with no tool attached"
kernel_ms=$("$tool" run 01 --variant grid_ceil_div --size 1M --no-counters --format csv | awk -F, 'NR==2{for(i=1;i<=NF;i++) if(h[i]=="time_ms_median") print $i} NR==1{for(i=1;i<=NF;i++) h[i]=$i}')
# A default run times 3 warm-up + 20 repeats inside one set of ranges.
echo "no tool attached:"
env -u NVTX_INJECTION64_PATH "$build/tools/bench/nvtx_overhead" "$kernel_ms" 23
echo "a tool attached (libcupti injected, no subscriber):"
NVTX_INJECTION64_PATH=${CUPTI_LIBRARY:-/usr/local/cuda/lib64/libcupti.so} "$build/tools/bench/nvtx_overhead" "$kernel_ms" 23 || true

fi

if want 3; then
echo "== 3. large sizes (no counters)"
if "$tool" list 04 >/dev/null 2>&1; then
  "$tool" run 04 --size 2^26 --no-counters --repeat 20 \
    --variant aos_float3,aos_float3_staged,aos_float4,soa,char_per_thread,uchar4_packed,memcpy_d2d | tee "$out/04-2^26.txt"
  # One field of a 32-byte particle record (2 GiB of records, 40x the L2): CUDA events, 3
  # warm-ups, the median of 20 launches each; the speedup is the ratio of the medians.
  "$tool" run 04 --size 2^26 --no-counters --repeat 20 --variant particles_aos,particles_soa \
    --format csv --output "$out/04-particles-2^26.csv"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           { t[$col["variant"]] = $col["time_ms_median"]; g[$col["variant"]] = $col["gbps"] }
           END { if (t["particles_soa"] <= 0) { print "particles: no times in the CSV"; exit 1 }
                 printf "particles_aos %.4f ms (%.1f GB/s), particles_soa %.4f ms (%.1f GB/s): SoA %.2fx faster\n",
                        t["particles_aos"], g["particles_aos"], t["particles_soa"], g["particles_soa"],
                        t["particles_aos"] / t["particles_soa"] }' "$out/04-particles-2^26.csv" |
    tee "$out/04-particles-2^26.txt"
fi
if "$tool" list 05 >/dev/null 2>&1; then
  "$tool" run 05 --size 2^28 --no-counters --repeat 20 | tee "$out/05-2^28.txt"
fi
if "$tool" list 06 >/dev/null 2>&1; then
  # 8192 x 8192 floats (256 MiB a matrix, five times the L2): every variant in one run, so the
  # transposes are compared with the copy kernel measured beside them; then the full stride
  # sweep at the same side, for the README's plot (scripts/plot.py --x param).
  "$tool" run 06 --size 8192 --no-counters --repeat 20 --format csv --output "$out/06-8192.csv"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           $col["sweep"] == "" { t[$col["variant"]] = $col["time_ms_median"]; g[$col["variant"]] = $col["gbps"] }
           END { if (t["copy"] <= 0) { print "06: no copy time in the CSV"; exit 1 }
                 for (v in g) if (v != "copy" && v != "exercise") printf "%-20s %.4f ms %7.1f GB/s %6.1f%% of copy\n", v, t[v], g[v], 100 * g[v] / g["copy"]
                 printf "padded is %.2fx faster than shared_tile; tile_rows reaches %.1f%% of copy\n",
                        t["shared_tile"] / t["padded"], 100 * g["tile_rows"] / g["copy"] }' \
    "$out/06-8192.csv" | sort | tee "$out/06-8192.txt"
  "$tool" run 06 --size 8192 --no-counters --repeat 20 --variant shared_stride --sweep full \
    --format csv --output "$out/06-stride-8192.csv"
  "$tool" run 06 --variant shared_stride --sweep full --format csv \
    --output "$out/06-stride-1001-counters.csv"
fi

fi

if want 5; then
echo "== 5. the memory tracer's cost (lab 04 at its default size, every variant and sweep point)"
if "$tool" doctor | grep -q "ok    memory tracer"; then
  # A mismatch (exit 4) must not stop the benchmark: the logs say it, the GPU tests fail on it.
  wall plain sh -c '"$0" run 04 --no-counters || true' "$tool"
  wall counted sh -c '"$0" run 04 || true' "$tool"
  wall traced sh -c '"$0" run 04 --no-counters --trace || true' "$tool"
  echo "lab 04 (default size): untraced, no counters ${plain} s; in-process counters ${counted} s;" \
       "--trace ${traced} s (the untraced run plus the traced one, one launch a point)" |
    tee "$out/trace-cost.txt"
else
  echo "no memory tracer in this build (cudalab doctor says why)" | tee "$out/trace-cost.txt"
fi
fi

if want 6; then
echo "== 6. the SASS-level shared witness's cost (labs 04 and 06 at their default sizes, median of 3)"
# data stage: the memory set and the data stage's shared counters, what the kit read before;
# SASS level: the memory set, the per-instruction wavefronts and the conflicts derived from them
# (which also read the data stage's counters): each lab's default set now.
for lab in 04 06; do
  "$tool" list "$lab" >/dev/null 2>&1 || continue
  "$tool" run "$lab" --no-counters >/dev/null 2>&1 || true  # load the driver and libraries once
  for how in "memory,pipe" "memory,shared_ld_wavefronts,shared_st_wavefronts,shared_ld_conflicts,shared_st_conflicts"; do
    wall a sh -c '"$0" run "$1" --metrics "$2" >/dev/null 2>&1 || true' "$tool" "$lab" "$how"
    wall b sh -c '"$0" run "$1" --metrics "$2" >/dev/null 2>&1 || true' "$tool" "$lab" "$how"
    wall c sh -c '"$0" run "$1" --metrics "$2" >/dev/null 2>&1 || true' "$tool" "$lab" "$how"
    median=$(printf '%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p)
    label=$([ "$how" = memory,pipe ] && echo "data stage" || echo "SASS level")
    printf '  lab %s, %-10s: %s s (runs %s %s %s)\n' "$lab" "$label" "$median" "$a" "$b" "$c"
  done
done | tee "$out/shared-witness-cost.txt"
fi

if want 4; then model_predictions; fi
