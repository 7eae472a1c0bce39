#!/bin/sh
# profile_counts.sh <cudalab> <program> <argument> <witness> [--nvtx REGEX] <kernel>=<counts>...:
# `cudalab profile --witness <witness> --format csv` on a program the kit did not write, each
# expected row (a kernel's CSV columns after its name: launches, untraced launches, dropped, ld
# requests, ld sectors, ld bytes, st requests, st sectors, st bytes, ideal sectors, waste, shared
# ld and st wavefronts, shared ld and st conflicts, witness, grid, block) held to the closed forms
# examples/CMakeLists.txt gives, no other row, and every row timed: a positive time_ns over as
# many launches as it counted (the timing run's); and DRAM bytes read and written (and no local
# traffic) on every row where counters are permitted, none (and said why) where they are refused. <witness> is tracer, counters, both, or counters-refused:
# counters asked for with CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM, so that profile must say so
# on stderr and measure with the tracer. Exit 77 (a skip) only where there is no CUDA device,
# which profile says with exit 3.
tool=$1 program=$2 argument=$3 witness=$4
shift 4
nvtx=
if [ "$1" = --nvtx ]; then nvtx=$2; shift 2; fi
err=$(mktemp)
if [ "$witness" = counters-refused ]; then
  csv=$(CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM "$tool" profile --witness counters --format csv \
    -- "$program" "$argument" 2>"$err")
elif [ -n "$nvtx" ]; then
  csv=$("$tool" profile --witness "$witness" --nvtx "$nvtx" --format csv -- "$program" \
    "$argument" 2>"$err")
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
rows=$(echo "$csv" | grep -c '^"')  # the program's own output passes through on stdout too
[ "$rows" -eq $# ] || { echo "profile_counts: $rows rows, $# expected"; exit 1; }
for expected in "$@"; do
  kernel=${expected%%=*} want=${expected#*=}
  row=$(echo "$csv" | grep -F "\"$kernel\",$want," | head -n 1)
  [ -n "$row" ] || { echo "profile_counts: no row '\"$kernel\",$want,...'"; exit 1; }
  # After the expected columns: time_ns, then timed_launches, which equals launches (column 2).
  echo "$row" | awk -F, '{ exit !($20 ~ /^[1-9][0-9]*$/ && $21 == $2) }' ||
    { echo "profile_counts: row '$row' is not timed over its launches"; exit 1; }
  # Then the Range Profiler's DRAM bytes and local requests and sectors (6 columns): none of
  # the examples spills, so its local columns are 0.
  if [ "$witness" = counters-refused ]; then
    echo "$row" | awk -F, '{ for (i = 22; i <= 27; ++i) if ($i != "") exit 1 }' ||
      { echo "profile_counts: row '$row' has DRAM bytes though counters were refused"; exit 1; }
  else
    echo "$row" | awk -F, '{ exit !($22 ~ /^[0-9]+$/ && $23 ~ /^[0-9]+$/ && $24 $25 $26 $27 == "0000") }' ||
      { echo "profile_counts: row '$row' has no DRAM bytes, or local traffic"; exit 1; }
  fi
done
if [ "$witness" = counters-refused ]; then
  echo "$said" | tr '\n' ' ' | grep -q "No DRAM bytes or local traffic: counters refused" ||
    { echo "profile_counts: no line saying why there are no DRAM bytes"; exit 1; }
fi
echo "profile_counts: every kernel equals its closed form"
