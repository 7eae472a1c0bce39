#!/bin/sh
# profile_lines.sh <cudalab> <transpose example> <its source>: `cudalab profile --lines` names the
# source lines of a program built with -lineinfo. At n = 256, transpose_naive's one line (a load
# and a store) holds all of its 2,048 warps' requests: loads of 4 sectors (8,192), stores of 32
# (65,536). Exit 77 (a skip) only where there is no CUDA device (profile's exit 3).
tool=$1 program=$2 source=$3
line=$(grep -n 'out\[static_cast<std::size_t>(c) \* n + r\] = in' "$source" | cut -d: -f1)
[ -n "$line" ] || { echo "profile_lines: transpose_naive's line not found in $source"; exit 1; }
out=$("$tool" profile --lines -- "$program" 256 2>&1)
status=$?
echo "$out"
[ "$status" -eq 3 ] && exit 77
[ "$status" -eq 0 ] || { echo "profile_lines: cudalab profile exited $status"; exit 1; }
row=$(echo "$out" | grep "^  transpose.cu:$line ")
[ -n "$row" ] || { echo "profile_lines: no row for transpose.cu:$line"; exit 1; }
[ "$(echo "$row" | awk '{print $2, $3, $4, $5, $6, $7}')" = "2,048 8,192 4.00 2,048 65,536 32.00" ] ||
  { echo "profile_lines: transpose.cu:$line: got '$row'"; exit 1; }
! echo "$out" | grep -q "no source line" || { echo "profile_lines: a line table was missing"; exit 1; }
echo "profile_lines: transpose.cu:$line holds transpose_naive's requests and sectors"
