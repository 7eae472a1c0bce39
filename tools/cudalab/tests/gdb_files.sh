#!/usr/bin/env bash
# gdb_files.sh <repository>: every cuda-gdb batch file the lessons ship runs as pasted: its
# `break <file>:<line>` names the line of the source text its "# breaks at:" comment quotes.
set -u
root=$1
fail() { echo "gdb_files: $*"; exit 1; }
count=0
for gdb in "$root"/labs/*/*.gdb; do
  at=$(sed -n 's/^# breaks at: //p' "$gdb")
  [ -n "$at" ] || fail "$gdb has no '# breaks at: <file>: <text>' comment"
  source=${at%%: *} text=${at#*: }
  [ -f "$root/$source" ] || fail "$gdb: no file $source"
  want=$(grep -nF -- "$text" "$root/$source" | head -1 | cut -d: -f1)
  [ -n "$want" ] || fail "$gdb: '$text' is not in $source"
  got=$(sed -n 's/^break [^:]*:\([0-9][0-9]*\)$/\1/p' "$gdb")
  [ "$got" = "$want" ] || fail "$gdb breaks at line ${got:-?}, but '$text' is on line $want of $source"
  grep -q '@LINE@' "$gdb" && fail "$gdb still has a placeholder"
  count=$((count + 1))
done
[ "$count" -gt 0 ] || fail "no .gdb file found"
echo "gdb_files: ok ($count files)"
