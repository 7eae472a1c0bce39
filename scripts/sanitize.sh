#!/usr/bin/env bash
# scripts/sanitize.sh [options] [<lab> [variant[,variant...] [tool]]]
# Runs compute-sanitizer's memcheck, racecheck, synccheck and initcheck over
#   cudalab run <lab> --variant <v> --no-counters --warmup 0 --repeat 1 --size <N>
# one process per variant and tool, writes each log to <out>/<lab>/<variant>.<tool>.log, and
# summarises what each tool found: each kind of error, how often, and the first report's kernel,
# source line, thread and address.
#   With a lab, variants and a tool (memcheck, racecheck, synccheck, initcheck or leak, which is
#     memcheck --leak-check full): that one tool, and the findings are reported, not asserted
#     (scripts/sanitize.sh 07-debugging oob_write memcheck), unless --expect-* says otherwise.
#   With a lab and --expect-clean (the default): no tool may report an error on any variant.
#   With --expect-errors: every variant must draw at least one error from the tools run, so
#     name the tool that sees the bug (--tools racecheck for a race, memcheck for a bad access).
#   With no lab: every variant of every lab (exercises aside) must be clean, except `buggy` ones,
#     whose findings are reported, not asserted: not every planted bug is a sanitizer's to see
#     (lab 01's no_bounds_guard writes into a canary band inside its allocation, on purpose).
# Options:
#   --build DIR    the build to run (default build/release)
#   --out DIR      where the logs go (default <build>/sanitize)
#   --tools LIST   comma list of memcheck, racecheck, synccheck, initcheck, leak (default: the
#                  first four)
#   --size N       problem size (default: the size a lab names for sanitizers, `cudalab list`,
#                  else 1000003: no multiple of any block, so tail blocks run; else its default)
#   --jobs N       runs at a time on the GPU (default 4)
#   --expect-clean / --expect-errors   what the named variants must show (see above)
#   -h, --help     this text
# compute-sanitizer is $COMPUTE_SANITIZER, else on PATH, else /usr/local/cuda/bin.
# Exit status: 0 as expected, 1 not as expected or a run failed, 2 bad arguments, 77 skipped
# (no compute-sanitizer, no GPU, or the sanitizer does not support this device).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "sanitize.sh: $1" >&2; exit "${2:-1}"; }

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/release
out=""
tools=memcheck,racecheck,synccheck,initcheck
size=""
jobs=4
expect=""
positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --expect-clean) expect=clean; shift ;;
    --expect-errors) expect=errors; shift ;;
    --build|--out|--tools|--size|--jobs)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" 2
      case $1 in
        --build) build=$2 ;; --out) out=$2 ;; --tools) tools=$2 ;; --size) size=$2 ;; --jobs) jobs=$2 ;;
      esac
      shift 2 ;;
    -*) die "unknown option '$1' (see --help)" 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -le 3 ] || die "too many arguments: ${positional[*]} (see --help)" 2
if [ ${#positional[@]} -eq 3 ]; then
  tools=${positional[2]}
  expect=${expect:-report}
fi
case $jobs in ''|*[!0-9]*|0) die "--jobs '$jobs' must be a positive whole number" 2 ;; esac
IFS=, read -r -a tool_list <<<"$tools"
[ ${#tool_list[@]} -gt 0 ] || die "--tools is empty" 2
for t in "${tool_list[@]}"; do
  case $t in memcheck|racecheck|synccheck|initcheck|leak) ;; *) die "unknown tool '$t' (memcheck, racecheck, synccheck, initcheck, leak)" 2 ;; esac
done
[ ${#positional[@]} -gt 0 ] || [ "$expect" != errors ] || die "--expect-errors needs a lab and its buggy variants" 2
out=${out:-$build/sanitize}

tool=$build/tools/cudalab/cudalab
[ -x "$tool" ] || die "$tool not found: build first (scripts/setup.sh)"
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || true)}
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
[ -n "$sanitizer" ] || { echo "sanitize.sh: SKIP: compute-sanitizer not found on PATH, in \$COMPUTE_SANITIZER or /usr/local/cuda/bin" >&2; exit 77; }
set +e
why=$("$tool" device 2>&1 >/dev/null)
device_status=$?
set -e
[ $device_status -ne 3 ] || { echo "sanitize.sh: SKIP: no usable CUDA device (${why%%$'\n'*})" >&2; exit 77; }

# The plan: one line per variant, "lab variant expectation sweep-values".
plan=()
# One line a variant from scripts/labs.py: lab id, name, role, the sweep's two ends or -, and the
# lab's sanitizer size (1000003 where the lab takes it, no multiple of any block, so tail
# blocks run; else its own). --size, when given, replaces the size.
add_lab() {  # add_lab <lab> [variant,list] [expectation]
  local lines lab_id name role sweep lab_size expectation
  lines=$("$root/scripts/labs.py" "$tool" plan "$1" ${2:+"$2"}) || exit 2  # it says why
  while read -r lab_id name role sweep lab_size; do
    if [ -n "${2:-}" ]; then
      expectation=${3:-clean}
    elif [ "$role" = buggy ]; then
      expectation=${3:-report}
    else
      expectation=${3:-clean}
    fi
    plan+=("$lab_id $name $expectation $sweep ${size:-$lab_size}")
  done <<<"$lines"
}
if [ ${#positional[@]} -gt 0 ]; then
  add_lab "${positional[0]}" "${positional[1]:-}" "${expect:-clean}"
else
  for lab in $("$root/scripts/labs.py" "$tool" ids); do add_lab "$lab" "" "$expect"; done
fi
[ ${#plan[@]} -gt 0 ] || die "nothing to run"

run_one() {  # run_one <lab> <variant> <tool> <sweep> <size>: writes <log> and <log>.result
  local lab=$1 variant=$2 t=$3 sweep=$4 size=$5
  local log=$out/$lab/$variant.$t.log
  local args=(run "$lab" --variant "$variant" --no-counters --warmup 0 --repeat 1 --size "$size")
  [ "$sweep" = - ] || args+=(--sweep "$sweep")
  local status=0
  local tool_args=(--tool "$t")
  [ "$t" != leak ] || tool_args=(--tool memcheck --leak-check full)
  "$sanitizer" "${tool_args[@]}" --error-exitcode 86 --print-limit 20 \
    "$tool" "${args[@]}" >"$log" 2>&1 || status=$?
  # "ERROR SUMMARY: 3 errors"; racecheck: "RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)".
  local errors
  errors=$(grep -Eo "ERROR SUMMARY: [0-9]+ error|\(([0-9]+) errors?," "$log" | grep -Eo "[0-9]+" | sort -n | tail -n 1 || true)
  if grep -q "Device not supported" "$log"; then
    echo "unsupported" >"$log.result"
  elif [ -n "$errors" ] && [ "$errors" -gt 0 ]; then
    echo "errors $errors" >"$log.result"
  elif [ "$status" -eq 0 ] && [ -n "$errors" ]; then
    echo "clean" >"$log.result"
  else
    echo "failed $status" >"$log.result"
  fi
}

echo "sanitize.sh: ${#plan[@]} variant(s) x ${#tool_list[@]} tool(s), size ${size:-1000003 or each lab default}, logs in $out"
running=0
for entry in "${plan[@]}"; do
  read -r lab variant expectation sweep point_size <<<"$entry"
  mkdir -p "$out/$lab"
  for t in "${tool_list[@]}"; do
    rm -f "$out/$lab/$variant.$t.log.result"
    run_one "$lab" "$variant" "$t" "$sweep" "$point_size" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  done
done
wait

bad=0
unsupported=0
summarise=$build/labs/07-debugging/cudalab_sanitizer_summary
summary=$out/summary.txt
: >"$summary"
for entry in "${plan[@]}"; do
  read -r lab variant expectation sweep point_size <<<"$entry"
  any_errors=0
  run_failed=0
  line=$(printf '%-20s %-24s' "$lab" "$variant")
  for t in "${tool_list[@]}"; do
    result=$(cat "$out/$lab/$variant.$t.log.result" 2>/dev/null || echo "failed ?")
    case $result in
      "errors "*) any_errors=1; line+=" $t: ${result#errors } error(s);" ;;
      clean) line+=" $t: clean;" ;;
      unsupported) unsupported=1; line+=" $t: device not supported;" ;;
      *) line+=" $t: RUN FAILED (exit ${result#failed }, see $lab/$variant.$t.log);"; run_failed=1; bad=1 ;;
    esac
    if [ "$expectation" = clean ] && [[ $result == "errors "* ]]; then bad=1; fi
  done
  case $expectation in
    clean) verdict=$([ $any_errors -eq 0 ] && echo "clean as expected" || echo "UNEXPECTED ERRORS") ;;
    errors) verdict=$([ $any_errors -eq 1 ] && echo "errors as expected" || echo "NO ERROR FOUND (expected some)")
            [ $any_errors -eq 1 ] || bad=1 ;;
    report) verdict="buggy: reported, not asserted" ;;
  esac
  [ $run_failed -eq 0 ] || verdict="RUN FAILED"
  echo "$line  => $verdict" | tee -a "$summary"
  # What was found, from the report parser lab 07 builds (cudalab_sanitizer_summary).
  if [ -x "$summarise" ]; then
    for t in "${tool_list[@]}"; do
      result=$(cat "$out/$lab/$variant.$t.log.result" 2>/dev/null || true)
      [[ $result == "errors "* ]] || continue
      echo "  $t:" | tee -a "$summary"
      "$summarise" "$out/$lab/$variant.$t.log" | tee -a "$summary"
    done
  fi
done
if [ $unsupported -eq 1 ]; then
  echo "sanitize.sh: SKIP: compute-sanitizer does not support this device (see the logs)" >&2
  exit 77
fi
echo "sanitize.sh: $([ $bad -eq 0 ] && echo "all as expected" || echo "NOT as expected") (summary: $summary)"
exit $bad
