#!/usr/bin/env bash
# output_file.sh <cudalab>: `run --output` checks its destination before any work, writes
# through a temporary file only at the end (regular files), writes devices and FIFOs directly,
# keeps the target's mode and links, and leaves nothing behind. Runs without a GPU: `run` still
# writes the model's predictions (exit 3), which is all these checks need.
. "$(dirname "$0")/cli_test_setup.sh" output_file "$@"
run() { "$tool" run 01 --size 1K --variant grid_ceil_div "$@" </dev/null; }

# Refused before any work: exit 2 and one line, nothing created.
expect_refused() {
  local what=$1; shift
  local err
  err=$(run "$@" 2>&1 >/dev/null); local code=$?
  expect_refused_in_one_line "$what" "$code" "$err"
  echo "ok: $what: $err"
}
mkdir "$dir/sub"
expect_refused "a directory" --output "$dir/sub"
expect_refused "a trailing slash" --output "$dir/new/"
expect_refused "a missing parent" --output "$dir/missing/out.csv"
expect_refused "a parent that is a file" --output "$0/out.csv"
long=$(printf 'x%.0s' $(seq 1 251))
expect_refused "a name longer than the file system allows" --output "$dir/${long}long.csv"
echo keep > "$dir/readonly.csv"; chmod 444 "$dir/readonly.csv"
expect_refused "a read-only file" --output "$dir/readonly.csv"
[ "$(cat "$dir/readonly.csv")" = keep ] || fail "the read-only file changed"
[ "$(stat -c %a "$dir/readonly.csv")" = 444 ] || fail "the read-only file's mode changed"
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$dir/locked"; chmod 555 "$dir/locked"
  expect_refused "an unwritable directory" --output "$dir/locked/out.csv"
fi
[ -z "$(ls -A "$dir/sub")" ] || fail "something was created in sub/"

# A regular file: written whole, its mode kept, no temporary file left.
echo old > "$dir/out.csv"; chmod 640 "$dir/out.csv"
run --output "$dir/out.csv" 2>/dev/null; code=$?
[ "$code" -eq 3 ] || fail "regular file: exit $code, expected 3 (no GPU)"
head -1 "$dir/out.csv" | grep -q '^lab,variant,role' || fail "regular file: no CSV header"
[ "$(stat -c %a "$dir/out.csv")" = 640 ] || fail "regular file: mode $(stat -c %a "$dir/out.csv"), expected 640"
# A new file gets the usual mode (0666 less the umask), not mkstemp's 0600.
(umask 022; run --output "$dir/fresh.json" 2>/dev/null)
[ "$(stat -c %a "$dir/fresh.json")" = 644 ] || fail "new file: mode $(stat -c %a "$dir/fresh.json"), expected 644"
grep -q '"rows"' "$dir/fresh.json" || fail "new file: .json did not pick JSON"
# A link to a file stays a link; its target gets the report.
echo old > "$dir/target.csv"; ln -s target.csv "$dir/link.csv"
run --output "$dir/link.csv" 2>/dev/null
[ -L "$dir/link.csv" ] || fail "the link was replaced by a file"
head -1 "$dir/target.csv" | grep -q '^lab,' || fail "the link's target did not get the report"
leftovers=$(find "$dir" -name '.*.csv.*' -o -name '.*.json.*' -o -name '*.tmp.*' | wc -l)
[ "$leftovers" -eq 0 ] || fail "temporary files left behind: $(find "$dir" -name '.*')"
# A name as long as the file system allows is written (the temporary file takes a short name).
run --output "$dir/$long.csv" 2>/dev/null
head -1 "$dir/$long.csv" | grep -q '^lab,' || fail "a 255-character name did not get the report"
echo "ok: regular files, modes, links, no leftovers, the longest names"

# Special files are written directly, never replaced.
run --output /dev/null 2>/dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
mkfifo "$dir/pipe"
cat "$dir/pipe" > "$dir/from_pipe" &
reader=$!
run --format csv --output "$dir/pipe" 2>/dev/null
wait "$reader"
[ -p "$dir/pipe" ] || fail "the FIFO was replaced"
head -1 "$dir/from_pipe" | grep -q '^lab,' || fail "the FIFO's reader got no report"
echo "ok: /dev/null and a FIFO written directly"

# A failed write is exit 1 with one line, never success.
err=$(run --format csv --output /dev/full 2>&1 >/dev/null); code=$?
[ "$code" -eq 1 ] || fail "/dev/full: exit $code, expected 1"
printf '%s\n' "$err" | grep -q "write failed" || fail "/dev/full: no write error in: $err"
echo "ok: a failed write is exit 1"

# A run stopped by a signal leaves no file at all (the temporary file is made at the end).
# Thousands of points keep the model busy for seconds (7 s of CPU on 2 cores).
"$tool" run 04 --variant aos_float3_staged,aos_float3 --block 32..1024:1 --size 2^16..2^20 \
  --output "$dir/stopped.csv" </dev/null >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM "$pid" 2>/dev/null || fail "the run ended before the signal: the test needs a longer run"
wait "$pid" 2>/dev/null
[ -z "$(find "$dir" -name '*stopped*')" ] || fail "a stopped run left $(find "$dir" -name '*stopped*')"
echo "ok: a stopped run leaves nothing"
echo "output_file: ok"
