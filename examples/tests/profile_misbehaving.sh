#!/bin/sh
# profile_misbehaving.sh <cudalab> <misbehaving_child> <way>: `cudalab profile` on a program that
# ends badly (misbehaving_child.cu), held to what the report must say:
#   abort      the launch before the crash reported, marked INCOMPLETE, "signal 6", exit 1
#   exit-3     the launch reported, complete, "exit 3", exit 1
#   hang       --timeout 5: the launch reported, INCOMPLETE, "killed at its deadline", exit 1,
#              in well under the child's ten minutes
#   no-kernel  one line "launched no CUDA kernel", exit 2 (so for a program that is not CUDA's,
#              `true`)
#   no-match   --kernel that names no kernel: one line, exit 2
# A program that exited is run once more, uninstrumented, and its kernel timed; one that did not
# finish is not, and the report says so.
# Each runs with profile's default witness: the counters where permitted, which a program that
# does not reach its exit leaves unread, so for abort and hang profile must say so and measure
# with the tracer (its stderr note), and exit-3's row is the counters'. The child's own output
# must pass through. Exit 77 (a skip) only where there is no CUDA device (profile's exit 3).
tool=$1 child=$2 way=$3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "profile_misbehaving $way: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
expect() {  # expect <file> <text>: the file's lines joined, as profile wraps its notes at 120
  tr '\n' ' ' <"$1" | grep -qF -- "$2" || fail "no '$2' in the $( [ "$1" = "$out" ] && echo stdout || echo stderr)"
}
case $way in
  abort | exit-3) "$tool" profile -- "$child" "$way" >"$out" 2>"$err" ;;
  hang) "$tool" profile --timeout 5 -- "$child" hang >"$out" 2>"$err" ;;
  no-kernel) "$tool" profile -- "$child" no-kernel >"$out" 2>"$err" ;;
  not-cuda) "$tool" profile -- true >"$out" 2>"$err" ;;
  no-match) "$tool" profile --kernel '^nothing_has_this_name$' -- "$child" exit-3 >"$out" 2>"$err" ;;
  *) echo "usage: profile_misbehaving.sh <cudalab> <child> <abort|exit-3|hang|no-kernel|not-cuda|no-match>"; exit 2 ;;
esac
status=$?
[ "$status" -eq 3 ] && { cat "$err"; exit 77; }
case $way in
  abort | exit-3 | hang)
    [ "$status" -eq 1 ] || fail "exit $status, not 1 (the program did not end well)"
    expect "$out" "misbehaving_child: touch ran; now $way"
    grep -q "^touch  *1 " "$out" || fail "no row for touch, launched once"
    ;;
esac
# Where counters are permitted (profile says nothing of a refusal), the default witness is theirs.
if ! grep -q "counters refused" "$err"; then
  case $way in
    abort | hang)
      expect "$err" "did not reach its exit, where the counters are read: the memory tracer"
      expect "$out" "witness: the memory tracer"
      ;;
    exit-3) expect "$out" "witness: CUPTI's SASS counters" ;;
  esac
fi
# A program that did not finish is not run again to be timed; one that exited is, whatever its code.
case $way in
  abort | hang) expect "$out" "(not measured: the program did not finish)" ;;
  exit-3) grep -q "; time [0-9]" "$out" || fail "touch has no time under its row" ;;
esac
case $way in
  abort) expect "$out" "(signal 6)"; expect "$out" "INCOMPLETE" ;;
  exit-3)
    expect "$out" "(exit 3)"
    ! grep -q INCOMPLETE "$out" || fail "a program that exited is not incomplete"
    ;;
  hang) expect "$out" "(killed at its deadline)"; expect "$out" "INCOMPLETE" ;;
  no-kernel | not-cuda | no-match)
    [ "$status" -eq 2 ] || fail "exit $status, not 2"
    [ "$(wc -l <"$err")" -eq 1 ] || fail "not one line on stderr"
    if [ "$way" = no-match ]; then
      expect "$err" "launched no kernel that --kernel, --nvtx, --skip and --count select"
    else
      expect "$err" "launched no CUDA kernel"
    fi
    ;;
esac
echo "profile_misbehaving $way: reported as it should be"
