#!/usr/bin/env bash
# scripts/nsys.sh [options] <lab> [variant[,variant...]]
# Profiles `cudalab run <lab> --no-counters` under Nsight Systems (CUDA and NVTX traces only, no
# CPU sampling) and writes the NVTX range summary and the kernel summary as CSV:
#   <out>/<name>.nsys-rep                the timeline: open it in the Nsight Systems GUI
#   <out>/<name>_nvtx_sum.csv            every cudalab range: lab, variant, alloc/h2d/kernel/d2h/verify
#   <out>/<name>_cuda_gpu_kern_sum.csv   every kernel, with its launches and times
# <name> is the lab id, or <lab>_<variant> when variants are given.
# Options:
#   --build DIR   the build whose tool is profiled (default build/release)
#   --out DIR     where the reports go (default <build>/profiles/nsys)
#   --size N      problem size for cudalab run (default: the lab's)
#   --repeat N    timed launches per variant (default 5; a timeline needs few)
#   -h, --help    this text
# nsys is $NSYS, else nsys on PATH, else the copy inside Nsight Compute
# (/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys). Where .nsys-libs/ exists
# (scripts/fetch-nsys-libs.sh), its libdw and libelf go on LD_LIBRARY_PATH for the report import.
# Exit status: 0 done, 1 failed, 2 bad arguments, 77 skipped (no nsys or no GPU; the reason
# is printed).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "nsys.sh: $1" >&2; exit "${2:-1}"; }

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/release
out=""
size=""
repeat=5
positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --build|--out|--size|--repeat)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" 2
      case $1 in --build) build=$2 ;; --out) out=$2 ;; --size) size=$2 ;; --repeat) repeat=$2 ;; esac
      shift 2 ;;
    -*) die "unknown option '$1' (see --help)" 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -ge 1 ] || die "which lab? usage: scripts/nsys.sh <lab> [variant] (see --help)" 2
[ ${#positional[@]} -le 2 ] || die "too many arguments: ${positional[*]} (see --help)" 2
lab=${positional[0]}
variant=${positional[1]:-}
case $repeat in ''|*[!0-9]*|0) die "--repeat '$repeat' must be a positive whole number" 2 ;; esac
out=${out:-$build/profiles/nsys}

tool=$build/tools/cudalab/cudalab
[ -x "$tool" ] || die "$tool not found: build first (scripts/setup.sh, or cmake --preset release && cmake --build --preset release)"
# The tool resolves "01", "4" or "coalescing"; report names use the full lab id.
lab_id=$("$root/scripts/labs.py" "$tool" id "$lab") || exit 2  # it says why

nsys_fallback=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
if [ -n "${NSYS:-}" ]; then
  [ -x "$NSYS" ] || die "NSYS=$NSYS is not an executable" 2
  nsys=$NSYS
elif command -v nsys >/dev/null; then
  nsys=$(command -v nsys)
elif [ -x "$nsys_fallback" ]; then
  nsys=$nsys_fallback
else
  echo "nsys.sh: SKIP: Nsight Systems (nsys) not found on PATH, in \$NSYS or at $nsys_fallback" >&2
  exit 77
fi

set +e
"$tool" device >/dev/null 2>&1
device_status=$?
set -e
[ $device_status -ne 3 ] || { echo "nsys.sh: SKIP: no usable CUDA device ($("$tool" device 2>&1 >/dev/null | head -n 1))" >&2; exit 77; }

for dir in "$root/.nsys-libs/usr/lib/x86_64-linux-gnu" "$root/.nsys-libs/lib/x86_64-linux-gnu"; do
  [ -d "$dir" ] && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

name=$lab_id
run_args=(run "$lab_id" --no-counters --repeat "$repeat")
if [ -n "$variant" ]; then
  name=${lab_id}_${variant//,/_}
  run_args+=(--variant "$variant")
fi
[ -z "$size" ] || run_args+=(--size "$size")
mkdir -p "$out"
report=$out/$name
rm -f "$report.nsys-rep" "$report.qdstrm" "$report.sqlite" "${report}"_*.csv

echo "nsys.sh: $nsys profile ... $tool ${run_args[*]}"
set +e
"$nsys" profile --trace=cuda,nvtx --sample=none --cpuctxsw=none --force-overwrite=true \
  --output "$report" "$tool" "${run_args[@]}" >"$report.profile.log" 2>&1
status=$?
set -e
cat "$report.profile.log"
[ $status -eq 0 ] || die "nsys profile (or cudalab run under it) exited with $status: see $report.profile.log"
if [ ! -f "$report.nsys-rep" ]; then
  if [ -f "$report.qdstrm" ]; then
    die "nsys wrote $report.qdstrm but no .nsys-rep: its importer failed (libdw/libelf missing? run scripts/fetch-nsys-libs.sh and carry .nsys-libs)"
  fi
  die "nsys wrote no report at $report.nsys-rep: see $report.profile.log"
fi

"$nsys" stats --report nvtx_sum,cuda_gpu_kern_sum --format csv --force-export=true \
  --output "$report" "$report.nsys-rep" >"$report.stats.log" 2>&1 ||
  die "nsys stats failed: $(tail -n 1 "$report.stats.log") (full log: $report.stats.log)"
for kind in nvtx_sum cuda_gpu_kern_sum; do
  [ -s "${report}_$kind.csv" ] || die "nsys stats wrote no ${report}_$kind.csv: see $report.stats.log"
  echo "nsys.sh: wrote ${report}_$kind.csv"
done
echo "nsys.sh: wrote $report.nsys-rep (open it in Nsight Systems: nsys-ui $report.nsys-rep)"
