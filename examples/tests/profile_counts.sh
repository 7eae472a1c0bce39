#!/bin/sh
# profile_counts.sh <cudalab> <program> <argument> <witness> <kernel>=<counts>...: `cudalab
# profile --witness <witness> --format csv` on a program the kit did not write, each expected
# row (a kernel's CSV columns after its name: launches, untraced launches, dropped, ld requests,
# ld sectors, ld bytes, st requests, st sectors, st bytes, ideal sectors, waste, shared ld and st
# wavefronts, shared ld and st conflicts, witness) held to the closed forms
# examples/CMakeLists.txt gives. <witness> is tracer, counters, both, or counters-refused:
# counters asked for with CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM, so that profile must say so
# on stderr and measure with the tracer. Exit 77 (a skip) only where there is no CUDA device,
# which profile says with exit 3.
tool=$1 program=$2 argument=$3 witness=$4
shift 4
err=$(mktemp)
if [ "$witness" = counters-refused ]; then
  csv=$(CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM "$tool" profile --witness counters --format csv \
    -- "$program" "$argument" 2>"$err")
else
  csv=$("$tool" profile --witness "$witness" --format csv -- "$program" "$argument" 2>"$err")
fi
status=$?
said=$(cat "$err")
rm -f "$err"
echo "$said"
[ "$status" -eq 3 ] && exit 77
[ "$status" -eq 0 ] || { echo "profile_counts: cudalab profile exited $status"; exit 1; }
echo "$csv"
if [ "$witness" = counters-refused ]; then
  echo "$said" | grep -q "counters refused (.*ERR_NVGPUCTRPERM.*): the memory tracer measures instead" ||
    { echo "profile_counts: no line saying the counters were refused"; exit 1; }
fi
for expected in "$@"; do
  kernel=${expected%%=*} want=${expected#*=}
  echo "$csv" | grep -Fxq "\"$kernel\",$want" ||
    { echo "profile_counts: no row '\"$kernel\",$want'"; exit 1; }
done
echo "profile_counts: every kernel equals its closed form"
