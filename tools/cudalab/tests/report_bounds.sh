#!/usr/bin/env bash
# report_bounds.sh <cudalab>: a run's rows are bounded before any work, and a large report is
# written a row at a time: under a memory limit it is refused in one line or written whole,
# never aborted. Runs without a GPU (hidden): the model's predictions are the rows.
. "$(dirname "$0")/cli_test_setup.sh" report_bounds "$@"

# 221,184 points: refused at once (exit 2, one line), with and without a memory limit.
for limit in unlimited 3000000; do
  err=$( (ulimit -v "$limit"; "$tool" run 01 --size 1..4096:1 --block 32..1024 --format json \
           --output "$dir/huge.json") 2>&1 >/dev/null); code=$?
  expect_refused_in_one_line "ulimit -v $limit" "$code" "$err"
  printf '%s' "$err" | grep -q "221184 points of 01-thread-indexing, at most 20000 a run" ||
    fail "the refusal does not say how many and the limit: $err"
  [ ! -e "$dir/huge.json" ] || fail "a refused run wrote its file"
done
echo "ok: 221,184 points refused before any work"

# 18,000 rows as JSON under a memory limit: written whole (the rows streamed), parseable.
(ulimit -v 3000000; "$tool" run 01 --size 1..2000:1 --format json --output "$dir/rows.json") \
  >/dev/null 2>"$dir/err"
code=$?
[ "$code" -eq 3 ] || fail "18,000 rows: exit $code, expected 3 (no GPU): $(head -c 300 "$dir/err")"
python3 - "$dir/rows.json" <<'PY' || fail "18,000 rows: the JSON is not whole"
import json, sys
doc = json.load(open(sys.argv[1]))
assert list(doc) == ["device", "copy_roof_gbps", "copy_memcpy_gbps", "copy_kernel_gbps", "rows",
                     "counters_note"], list(doc)
assert len(doc["rows"]) == 18000, len(doc["rows"])
PY
echo "ok: 18,000 rows written whole under ulimit -v"

# A run whose hang-up signal the shell ignores (nohup) keeps ignoring it, writing included.
(trap '' HUP; exec "$tool" run 04 --variant aos_float3_staged,aos_float3 --block 32..1024:4 \
   --size 2^16..2^19 --format csv --output "$dir/nohup.csv" </dev/null >/dev/null 2>&1) &
pid=$!
# Signals only once the subshell has set the trap and become cudalab.
for _ in $(seq 100); do [ "$(cat /proc/$pid/comm 2>/dev/null)" = cudalab ] && break; sleep 0.01; done
while kill -0 "$pid" 2>/dev/null; do kill -HUP "$pid" 2>/dev/null; sleep 0.02; done
wait "$pid"; code=$?
[ "$code" -eq 3 ] || fail "the ignored SIGHUP ended the run (exit $code)"
[ "$(wc -l <"$dir/nohup.csv")" -eq $((2 * 249 * 4 + 1)) ] || fail "the nohup run's CSV is not whole"
[ -z "$(find "$dir" -name '.nohup*')" ] || fail "a temporary file was left"
echo "ok: an ignored SIGHUP stays ignored"
echo "report_bounds: ok"
