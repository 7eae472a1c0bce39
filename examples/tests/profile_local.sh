#!/bin/sh
# profile_local.sh <cudalab> <program> <argument> <kernel> <column>=<count>...: `cudalab profile
# --format json` on a program the kit did not write, the kernel's local-memory requests and sectors
# (read in the Range Profiler's run) held to the closed forms examples/CMakeLists.txt gives. Exit 77
# (a skip) only where there is no CUDA device; counters refused is a failure (the run is not made).
tool=$1 program=$2 argument=$3 kernel=$4
shift 4
report=$(mktemp) err=$(mktemp)
trap 'rm -f "$report" "$err"' EXIT
"$tool" profile --format json --output "$report" -- "$program" "$argument" 2>"$err"
status=$?
cat "$err"
[ "$status" -eq 3 ] && exit 77
[ "$status" -eq 0 ] || { echo "profile_local: cudalab profile exited $status"; exit 1; }
python3 - "$report" "$kernel" "$@" <<'PY'
import json, sys
report, kernel, expected = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3:]
if "no_range_counts" in report:
    sys.exit(f"profile_local: no local traffic counted: {report['no_range_counts']}")
rows = [k for k in report["kernels"] if k["kernel"].startswith(kernel)]
if len(rows) != 1:
    sys.exit(f"profile_local: {len(rows)} rows for {kernel}")
wrong = []
for pair in expected:
    column, want = pair.split("=")
    got = rows[0][column]
    print(f"{kernel} {column}: {got} (closed form {want})")
    if got != int(want):
        wrong.append(column)
if wrong:
    sys.exit("profile_local: " + ", ".join(wrong) + " differ from the closed forms")
print("profile_local: every local count equals its closed form")
PY
