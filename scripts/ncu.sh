#!/usr/bin/env bash
# scripts/ncu.sh [options] <lab> <variant> [metrics]
# Profiles one variant's kernels with Nsight Compute, selected by the kit's NVTX ranges:
#   ncu --nvtx --nvtx-include "cudalab@<lab>/<variant>/" --metrics <CUPTI names> \
#       cudalab run <lab> --variant <variant> --no-counters --warmup 0 --repeat 1
# so ncu sees exactly one launch of each kernel of the variant (the filter matches every kernel
# beneath the lab/variant range). [metrics] is a set (memory, shared, pipe, classes, dram, ...) or a
# comma list of short or CUPTI names, resolved by `cudalab metrics --set`; default: memory.
# Writes <out>/<lab>_<variant>.ncu-rep (open it in ncu-ui), <out>/<lab>_<variant>.csv (one row a
# kernel, one column a metric) and <out>/<lab>_<variant>.log.
# Options:
#   --build DIR   the build to profile (default build/release; not the debug build: -G changes counts)
#   --out DIR     where the reports go (default <build>/profiles/ncu)
#   --size N      problem size for cudalab run (default: the lab's)
#   --sweep V     the sweep value for a sweep variant (offset, stride)
#   -h, --help    this text
# ncu is $NCU, else ncu on PATH, else /opt/nvidia/nsight-compute/*/ncu.
# Exit status: 0 done, 1 failed, 2 bad arguments, 77 skipped (no ncu or no GPU).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "ncu.sh: $1" >&2; exit "${2:-1}"; }

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/release
out=""
size=""
sweep=""
positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --build|--out|--size|--sweep)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" 2
      case $1 in --build) build=$2 ;; --out) out=$2 ;; --size) size=$2 ;; --sweep) sweep=$2 ;; esac
      shift 2 ;;
    -*) die "unknown option '$1' (see --help)" 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -ge 2 ] || die "usage: scripts/ncu.sh <lab> <variant> [metrics] (see --help)" 2
[ ${#positional[@]} -le 3 ] || die "too many arguments: ${positional[*]} (see --help)" 2
lab=${positional[0]}
variant=${positional[1]}
metrics=${positional[2]:-memory}
out=${out:-$build/profiles/ncu}

tool=$build/tools/cudalab/cudalab
[ -x "$tool" ] || die "$tool not found: build first (scripts/setup.sh)"
lab_id=$("$root/scripts/labs.py" "$tool" id "$lab") || exit 2  # it says why
"$root/scripts/labs.py" "$tool" has-variant "$lab_id" "$variant" ||
  die "unknown variant '$variant' of $lab_id (cudalab list $lab_id shows them)" 2
names=$("$tool" metrics --set "$metrics" 2>&1) || die "bad metrics '$metrics': ${names##*cudalab: }" 2
cupti_names=$(printf '%s\n' "$names" | awk 'NF >= 2 { print $2 }' | paste -sd, -)
[ -n "$cupti_names" ] || die "metrics '$metrics' resolved to no CUPTI names" 2

if [ -n "${NCU:-}" ]; then
  [ -x "$NCU" ] || die "NCU=$NCU is not an executable" 2
  ncu=$NCU
elif command -v ncu >/dev/null; then
  ncu=$(command -v ncu)
else
  ncu=$(ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$ncu" ] || { echo "ncu.sh: SKIP: Nsight Compute (ncu) not found on PATH, in \$NCU or under /opt/nvidia/nsight-compute" >&2; exit 77; }
fi
set +e
why=$("$tool" device 2>&1 >/dev/null)
device_status=$?
set -e
[ $device_status -ne 3 ] || { echo "ncu.sh: SKIP: no usable CUDA device (${why%%$'\n'*})" >&2; exit 77; }

run_args=(run "$lab_id" --variant "$variant" --no-counters --warmup 0 --repeat 1)
[ -z "$size" ] || run_args+=(--size "$size")
[ -z "$sweep" ] || run_args+=(--sweep "$sweep")
mkdir -p "$out"
base=$out/${lab_id}_${variant}
filter="cudalab@${lab_id}/${variant}/"
echo "ncu.sh: $ncu --nvtx --nvtx-include \"$filter\" --metrics $metrics ... cudalab ${run_args[*]}"
set +e
# --clock-control none: leave the GPU's clocks alone (counts do not depend on them).
"$ncu" --nvtx --nvtx-include "$filter" --metrics "$cupti_names" --clock-control none \
  --force-overwrite --export "$base" "$tool" "${run_args[@]}" >"$base.log" 2>&1
status=$?
set -e
if grep -q "ERR_NVGPUCTRPERM" "$base.log"; then
  die "GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM): run as root, or see https://developer.nvidia.com/ERR_NVGPUCTRPERM"
fi
[ $status -eq 0 ] || die "ncu (or cudalab run under it) exited with $status: see $base.log"
if grep -q "No kernels were profiled" "$base.log" || [ ! -f "$base.ncu-rep" ]; then
  die "ncu profiled no kernel: nothing ran inside the NVTX range $filter (a variant without kernels, such as a library baseline?); see $base.log"
fi
"$ncu" --import "$base.ncu-rep" --csv --page raw >"$base.csv" 2>>"$base.log" ||
  die "ncu --import of $base.ncu-rep failed: see $base.log"
kernels=$(($(grep -c '^"[0-9]' "$base.csv" || true)))
echo "ncu.sh: $kernels kernel launch(es) profiled; wrote $base.csv and $base.ncu-rep (ncu-ui $base.ncu-rep)"
# The CSV's first columns are the kernel; the metric columns follow. Show them, one per line.
python3 - "$base.csv" "$cupti_names" <<'PY' || true
import csv, sys
path, names = sys.argv[1], sys.argv[2].split(",")
rows = [r for r in csv.DictReader(open(path, newline="")) if r.get("ID", "").strip().isdigit()]
for r in rows:
    print(f"  {r.get('Kernel Name', '?')[:70]}")
    for n in names:
        if n in r:
            print(f"    {n:62s} {r[n]}")
PY
