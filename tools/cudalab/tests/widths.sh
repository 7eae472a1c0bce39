#!/usr/bin/env bash
# widths.sh <cudalab> <scripts/labs.py>: what the tool prints without a GPU fits 120 columns:
# `cudalab list`, every variant's `run --details`, the no-GPU notice, refusals and their fixes.
set -u
tool=$1 labs=$2
export CUDA_VISIBLE_DEVICES=
fail() { echo "widths: $*"; exit 1; }
widest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
[ "$("$tool" list | widest)" -le 120 ] || fail "cudalab list is $("$tool" list | widest) columns"
for lab in $("$labs" "$tool" ids); do
  for variant in $("$labs" "$tool" variants "$lab"); do
    w=$("$tool" run "$lab" --details "$variant" 2>&1 | widest)
    [ "$w" -le 120 ] || fail "run $lab --details $variant is $w columns"
  done
done
w=$("$tool" run 01 --size 1K 2>&1 >/dev/null | widest)
[ "$w" -le 120 ] || fail "the no-GPU notice is $w columns"
# Refusals and their fixes: one line each, the fix wrapped under it.
for cmd in "check x" "run 02 --details nope" "run 01 --variant exercise" "run 02 --block 1" \
           "run 02 --sweep full" "check 04" "device" "doctor" "metrics" "--help" "profile --help" \
           "profile" "profile --timeout 0 -- /bin/true" "profile -- /bin/true" \
           "profile -- /no/such/program" "run 04 --metrics ld_sector" "run 06 --block 96" \
           "run 01 --variant grid_ceil_div --size 2^36 --block 16" \
           "run 04 --variant aos_float3_staged --block 1 --size 2^31" \
           "run 04 --variant aos_float3_staged --block 64..1024:1 --size 2^14..2^36" \
           "run 01 --size 1..4096:1 --block 32..1024" "run 01 --output /nonexistent/$(printf 'd%.0s' $(seq 1 300))/x.csv"; do
  # shellcheck disable=SC2086
  w=$("$tool" $cmd 2>&1 | widest)
  [ "$w" -le 120 ] || fail "cudalab $cmd prints $w columns"
done
for setting in CUDALAB_PROGRESS_AFTER_MS=-1 CUDALAB_PROGRESS_AFTER_MS=99999999999999999999 \
               CUDALAB_TRACE_TIMEOUT_S=soon COMPUTE_SANITIZER=/nonexistent/compute-sanitizer \
               "CUDA_INJECTION64_PATH=/usr/local/cuda/compute-sanitizer/libsanitizer-collection.so"; do
  w=$(env "$setting" "$tool" run 04 --trace 2>&1 | widest)
  [ "$w" -le 120 ] || fail "$setting: the refusal is $w columns"
done
w=$("$tool" run 02 --format "$(printf 'a%.0s' $(seq 1 5000))" 2>&1 | widest)
[ "$w" -le 120 ] || fail "a long --format value is shown in $w columns"
echo "widths: ok"
