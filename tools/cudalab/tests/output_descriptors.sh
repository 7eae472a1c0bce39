#!/usr/bin/env bash
# output_descriptors.sh <cudalab>: `--output` naming one of the process's open descriptors
# (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N) writes through that descriptor in
# place, as a shell redirect would: `>> log` keeps what log held, a pipe works, and a closed or
# read-only descriptor is refused before any work (one line, exit 2). Runs without a GPU: `run`
# still writes the model's predictions (exit 3), which is all these checks need.
. "$(dirname "$0")/cli_test_setup.sh" output_descriptors "$@"
run() { "$tool" run 05 --size 1K --format csv "$@" </dev/null; }
rows() { grep -c '^05-reduction,' "$1"; }

# Appended through a >> redirect, between two lines the shell wrote: all three stay.
log=$dir/log.txt
echo BEFORE >"$log"
run --output /dev/stdout >>"$log" 2>/dev/null
echo AFTER >>"$log"
[ "$(head -1 "$log")" = BEFORE ] || fail "/dev/stdout >> log lost the line before: $(head -1 "$log")"
[ "$(tail -1 "$log")" = AFTER ] || fail "/dev/stdout >> log lost the line after"
[ "$(rows "$log")" -ge 9 ] || fail "/dev/stdout >> log holds $(rows "$log") rows"
echo "ok: /dev/stdout >> log keeps what was there"

# The same through a group redirect with >, and through /dev/stderr 2>>.
(echo BEFORE; run --output /dev/stdout 2>/dev/null; echo AFTER) >"$dir/combined.txt"
[ "$(head -1 "$dir/combined.txt")" = BEFORE ] && [ "$(tail -1 "$dir/combined.txt")" = AFTER ] ||
  fail "(echo; cudalab --output /dev/stdout; echo) > file lost a line"
echo BEFORE >"$dir/err.txt"
run --output /dev/stderr 2>>"$dir/err.txt" >/dev/null
[ "$(head -1 "$dir/err.txt")" = BEFORE ] && [ "$(rows "$dir/err.txt")" -ge 9 ] ||
  fail "/dev/stderr 2>> err.txt lost the line before or the rows"
echo "ok: a group redirect and /dev/stderr 2>> keep what was there"

# Any descriptor by number, under /dev/fd and /proc/self/fd.
for path in /dev/fd/3 /proc/self/fd/3; do
  echo BEFORE >"$dir/fd3.txt"
  run --output "$path" 3>>"$dir/fd3.txt" >/dev/null 2>&1
  [ "$(head -1 "$dir/fd3.txt")" = BEFORE ] && [ "$(rows "$dir/fd3.txt")" -ge 9 ] ||
    fail "$path 3>> file lost the line before or the rows"
  echo "ok: $path 3>> file"
done

# Into a pipe: the header reaches the reader.
header=$(run --output /dev/stdout 2>/dev/null | head -1)
[ "${header#lab,variant,}" != "$header" ] || fail "/dev/stdout into a pipe: '$header'"
echo "ok: /dev/stdout into a pipe"

# Refused before any work: a closed descriptor, one open for reading only.
for case in "9|descriptor 9 is not open" "3|descriptor 3 is open for reading only"; do
  fd=${case%%|*} want=${case#*|}
  err=$(run --output "/dev/fd/$fd" 3<"$log" 2>&1 >/dev/null); code=$?
  expect_refused_in_one_line "/dev/fd/$fd" "$code" "$err"
  case $err in *"$want"*) ;; *) fail "/dev/fd/$fd: '$err' does not say '$want'" ;; esac
  echo "ok: /dev/fd/$fd refused: $err"
done
