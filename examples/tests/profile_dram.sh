#!/bin/sh
# profile_dram.sh <cudalab> <transpose>: each kernel's DRAM bytes as `cudalab profile` counts them
# (its Range Profiler run), held to what the hardware cannot avoid. At n = 8192 each matrix is
# 256 MiB, several times any L2: a kernel that reads the whole input must fetch at least the
# input less what the L2 can hold from DRAM, and one that writes the whole output must have
# written at least the output less what the L2 can still hold dirty when it ends. A count of
# nothing, of sectors instead of bytes, or of another kernel's range fails. Exit 77 (a skip) only
# where there is no CUDA device; where counters are refused the DRAM run is not made, and that
# must be said.
tool=$1 transpose=$2 n=8192
report=$(mktemp) err=$(mktemp) device=$(mktemp)
trap 'rm -f "$report" "$err" "$device"' EXIT
"$tool" profile --format json --output "$report" -- "$transpose" "$n" 2>"$err"
status=$?
[ "$status" -eq 3 ] && { cat "$err"; exit 77; }
[ "$status" -eq 0 ] || { cat "$err"; echo "profile_dram: cudalab profile exited $status"; exit 1; }
"$tool" device --format json >"$device" || { echo "profile_dram: cudalab device failed"; exit 1; }
python3 - "$report" "$device" "$n" <<'PY'
import json, sys
report, device = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
n = int(sys.argv[3])
l2 = device["l2_bytes"] if "l2_bytes" in device else device["devices"][0]["l2_bytes"]
matrix = n * n * 4
if "no_range_counts" in report:
    sys.exit(f"profile_dram: no DRAM bytes: {report['no_range_counts']}")
rows = {k["kernel"]: k for k in report["kernels"]}
for name in ("transpose_naive", "transpose_tiled"):
    k = rows.get(name) or next((r for n_, r in rows.items() if n_.startswith(name)), None)
    if k is None:
        sys.exit(f"profile_dram: no row for {name}: {sorted(rows)}")
    read, written = k["dram_read_bytes"], k["dram_write_bytes"]
    print(f"{name}: DRAM {read} bytes read, {written} written; matrix {matrix}, L2 {l2}")
    if read is None or written is None:
        sys.exit(f"profile_dram: {name} has no DRAM bytes")
    if read < matrix - l2:
        sys.exit(f"profile_dram: {name} read {read} bytes, below the {matrix - l2} it cannot avoid")
    if written < matrix - l2:
        sys.exit(f"profile_dram: {name} wrote {written} bytes, below the {matrix - l2} it cannot avoid")
print("profile_dram: every kernel moved at least what its matrices force through DRAM")
PY
