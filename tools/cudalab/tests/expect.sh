#!/usr/bin/env bash
# expect.sh <exit-code> <regex> [--lines N] -- command...
# Runs the command; passes when it exits with <exit-code> and its output (stdout + stderr)
# matches <regex> (extended grep). With --lines N, stderr must be at most N lines: bad input
# gets one clear line, not a stack of messages.
set -u
want_code=$1 regex=$2
shift 2
max_lines=""
if [ "${1:-}" = "--lines" ]; then max_lines=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err" </dev/null
code=$?
cat "$out" "$err"
if [ "$code" -ne "$want_code" ]; then
  echo "expect.sh: exit code $code, expected $want_code" >&2
  exit 1
fi
if ! cat "$out" "$err" | grep -Eq -- "$regex"; then
  echo "expect.sh: output does not match /$regex/" >&2
  exit 1
fi
if [ -n "$max_lines" ] && [ "$(wc -l <"$err")" -gt "$max_lines" ]; then
  echo "expect.sh: stderr has $(wc -l <"$err") lines, expected at most $max_lines" >&2
  exit 1
fi
exit 0
