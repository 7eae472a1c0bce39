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
           "profile -- /no/such/program"; do
  # shellcheck disable=SC2086
  w=$("$tool" $cmd 2>&1 | widest)
  [ "$w" -le 120 ] || fail "cudalab $cmd prints $w columns"
done
w=$(CUDALAB_PROGRESS_AFTER_MS=-1 "$tool" run 01 2>&1 | widest)
[ "$w" -le 120 ] || fail "an environment variable's refusal is $w columns"
w=$("$tool" run 02 --format "$(printf 'a%.0s' $(seq 1 5000))" 2>&1 | widest)
[ "$w" -le 120 ] || fail "a long --format value is shown in $w columns"
echo "widths: ok"
