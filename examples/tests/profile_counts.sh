#!/bin/sh
# profile_counts.sh <cudalab> <program> <argument> <kernel>=<counts>...: `cudalab profile` on a
# program the kit did not write, each named kernel's CSV columns after its name (launches,
# untraced launches, dropped, ld requests, ld sectors, ld bytes, st requests, st sectors,
# st bytes, ideal sectors, waste, shared ld and st wavefronts, shared ld and st conflicts) held
# to the closed forms examples/CMakeLists.txt gives. Exit 77 (a skip) only where there is no
# CUDA device, which profile says with exit 3.
tool=$1 program=$2 argument=$3
shift 3
err=$(mktemp)
csv=$("$tool" profile --format csv -- "$program" "$argument" 2>"$err")
status=$?
cat "$err"
rm -f "$err"
[ "$status" -eq 3 ] && exit 77
[ "$status" -eq 0 ] || { echo "profile_counts: cudalab profile exited $status"; exit 1; }
echo "$csv"
for expected in "$@"; do
  kernel=${expected%%=*} want=${expected#*=}
  line=$(echo "$csv" | grep "^\"$kernel\",")
  got=${line#*\",}
  [ -n "$line" ] || { echo "profile_counts: no row for $kernel"; exit 1; }
  [ "$got" = "$want" ] || { echo "profile_counts: $kernel: got '$got', want '$want'"; exit 1; }
done
echo "profile_counts: every kernel equals its closed form"
