#!/usr/bin/env bash
# scripts/check-nsys-report.sh [options] <lab> <kernel[,kernel...]>
# Runs scripts/nsys.sh on a lab (every variant) and checks what Nsight Systems recorded:
#   nvtx_sum lists the lab's range once per variant, each variant's range once, and the phase
#     ranges alloc, h2d, kernel, d2h, verify once per variant, all in the cudalab domain
#     (shown as "name", ":name" or "cudalab:name" depending on the nsys version);
#   cuda_gpu_kern_sum lists each of the given kernels (base names, e.g. affine_guarded_kernel).
# Variant names come from `cudalab list <lab>`, so the check follows the lab.
# Options: --build DIR, --out DIR, --size N (passed to nsys.sh); -h, --help.
# Exit status: 0 checked, 1 a check failed, 2 bad arguments, 77 skipped (no nsys or no GPU).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "check-nsys-report.sh: $1" >&2; exit "${2:-1}"; }

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/release
out=""
size=""
positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --build|--out|--size)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" 2
      case $1 in --build) build=$2 ;; --out) out=$2 ;; --size) size=$2 ;; esac
      shift 2 ;;
    -*) die "unknown option '$1' (see --help)" 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || die "usage: check-nsys-report.sh [options] <lab> <kernel[,kernel...]> (see --help)" 2
lab=${positional[0]}
kernels=${positional[1]}
out=${out:-$build/profiles/nsys-check}
command -v python3 >/dev/null || die "python3 not found: it parses the CSV reports"

nsys_args=(--build "$build" --out "$out")
[ -z "$size" ] || nsys_args+=(--size "$size")
set +e
"$root/scripts/nsys.sh" "${nsys_args[@]}" "$lab"
status=$?
set -e
[ $status -ne 77 ] || exit 77  # nsys.sh printed the reason
[ $status -eq 0 ] || die "scripts/nsys.sh failed (exit $status)"

tool=$build/tools/cudalab/cudalab
lab_id=$("$root/scripts/labs.py" "$tool" id "$lab") || exit 2
# The variants `cudalab run <lab>` runs (exercises are not among them).
variants=$("$root/scripts/labs.py" "$tool" variants "$lab_id" | paste -sd, -)
[ -n "$variants" ] || die "cudalab list $lab shows no variants"

python3 - "$out/${lab_id}_nvtx_sum.csv" "$out/${lab_id}_cuda_gpu_kern_sum.csv" \
  "$lab_id" "$variants" "$kernels" <<'PY'
import csv, re, sys

nvtx_csv, kern_csv, lab, variants, kernels = sys.argv[1:6]
variants = variants.split(",")
kernels = [k for k in kernels.split(",") if k]
phases = ["alloc", "h2d", "kernel", "d2h", "verify"]
problems = []

def table(path, *headers):
    """The rows of a report, from the first line that names one of `headers` as a column."""
    with open(path, newline="") as f:
        lines = [l for l in f if l.strip()]
    for i, fields in enumerate(csv.reader(lines)):
        found = [h for h in headers if h in fields]
        if found:
            return list(csv.DictReader(lines[i:])), found[0]
    raise SystemExit(f"check-nsys-report.sh: FAIL: {path} has no {' or '.join(headers)} column")

def column(rows, *names):
    for name in names:
        if rows and name in rows[0]:
            return name
    raise SystemExit(f"check-nsys-report.sh: FAIL: no {' or '.join(names)} column "
                     f"(columns: {list(rows[0]) if rows else 'none'})")

nvtx, range_col = table(nvtx_csv, "Range", "Name")
inst_col = column(nvtx, "Instances", "Count")
instances = {}
for r in nvtx:
    raw = r[range_col].strip()
    domain, sep, name = raw.rpartition(":") if ":" in raw else ("", "", raw)
    if domain not in ("", "cudalab"):
        continue  # another domain's range
    instances[name] = instances.get(name, 0) + int(float(r[inst_col].replace(",", "")))

expected = {lab: len(variants), **{v: 1 for v in variants}, **{p: len(variants) for p in phases}}
for name, count in expected.items():
    got = instances.get(name)
    if got is None:
        problems.append(f"nvtx_sum: no range '{name}' (ranges seen: {sorted(instances)})")
    elif got != count:
        problems.append(f"nvtx_sum: range '{name}' has {got} instances, expected {count}")

kern, name_col = table(kern_csv, "Name", "Kernel Name")
names = [r[name_col].strip() for r in kern]
for k in kernels:
    pattern = re.compile(r"(^|[\s:])" + re.escape(k) + r"($|[(<\s])")
    if not any(pattern.search(n) for n in names):
        problems.append(f"cuda_gpu_kern_sum: no kernel '{k}' (kernels seen: {names})")

for p in problems:
    print("check-nsys-report.sh: FAIL:", p)
if problems:
    sys.exit(1)
print(f"check-nsys-report.sh: ok: {lab}: {len(expected)} range names with the expected instance "
      f"counts, {len(kernels)} kernels in the kernel summary")
PY
