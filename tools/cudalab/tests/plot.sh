#!/usr/bin/env bash
# plot.py on a small sweep CSV: every requested figure is written, a rate gets error bars from
# the repeats' spread without failing, and a missing column is one line and exit 2.
# Exit 77 (skip) where no Python with matplotlib is found.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
python=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import matplotlib" 2>/dev/null; then python=$candidate; break; fi
done
[ -n "$python" ] || { echo "SKIP: no python3 with matplotlib (python3 -m pip install matplotlib)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/sizes.csv" <<'CSV'
lab,variant,size,block,time_ms_median,time_ms_min,time_ms_max,gbps,tflops
03-shared-memory-tiling,tiled,256,256,0.010,0.009,0.012,10,3.3554
03-shared-memory-tiling,tiled,512,256,0.060,0.058,0.070,14,4.4739
03-shared-memory-tiling,cublas,256,0,0.004,0.004,0.005,25,8.3886
03-shared-memory-tiling,cublas,512,0,0.010,,,30,26.8435
CSV
out=$("$python" "$root/scripts/plot.py" "$work/sizes.csv" --x size --y tflops,time_ms_median --log)
for png in "$work/sizes_tflops_vs_size.png" "$work/sizes_time_ms_median_vs_size.png"; do
  grep -qF "$png" <<<"$out" || { echo "plot.py did not report $png: $out"; exit 1; }
  [ -s "$png" ] || { echo "$png is missing or empty"; exit 1; }
done
out=$("$python" "$root/scripts/plot.py" "$work/sizes.csv" --speedup cublas --xlabel "matrix side n")
[ -s "$work/sizes_speedup_over_cublas.png" ] && grep -qF sizes_speedup_over_cublas.png <<<"$out" ||
  { echo "--speedup with --xlabel wrote no figure: $out"; exit 1; }
set +e
err=$("$python" "$root/scripts/plot.py" "$work/sizes.csv" --x size --y nothing 2>&1 >/dev/null)
status=$?
set -e
[ $status -eq 2 ] || { echo "a missing column exited $status, not 2"; exit 1; }
[ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "lacks column(s) nothing" <<<"$err" ||
  { echo "a missing column should be one line naming it, got: $err"; exit 1; }
echo "plot.py: figures written, missing column refused"
