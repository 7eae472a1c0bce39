#!/usr/bin/env bash
# widths.sh <cudalab> <scripts/labs.py>: what the tool prints without a GPU fits 120 columns:
# `cudalab list`, every variant's `run --details`, and the no-GPU notice.
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
echo "widths: ok"
