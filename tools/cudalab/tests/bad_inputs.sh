#!/usr/bin/env bash
# bad_inputs.sh <cudalab>: every option of every command, fed each class of bad input, answers
# with at most a couple of short lines on stderr and a documented exit code: never a crash, a
# hang, a raw control character or a 100,000-character echo. Without a GPU (hidden), so that
# valid-looking values end in the model's predictions (exit 3) quickly.
set -u
tool=$1
export CUDA_VISIBLE_DEVICES=
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
scratch=$(mktemp -d)  # --output's odd names land here
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
failures=0
long=$(head -c 100000 /dev/zero | tr '\0' 'x')
values=("" " " "," "1,,2" "a
b" $'\x1b[31mred' "$long" "-1" "0" "2^64" "99999999999999999999" "nope" "1..0" "2^63" "18446744073709551615")
# Values no option accepts: these must be exit 2 (--output takes any name it can write, so its
# odd names are checked for the rest: one short line, no crash).
always_bad() {
  [ "${opt:-}" = "run 01 --output" ] && [ "$1" != "" ] && [ "$1" != " " ] && return 1
  case "$1" in ""|" "|","|"1,,2"|"a
b"|$'\x1b[31mred'|"$long"|"-1"|"99999999999999999999"|"nope"|"1..0"|"18446744073709551615") return 0 ;; esac
  return 1
}
check() {
  local label=$1; shift
  local err code
  err=$(timeout 60 "$@" 2>&1 >/dev/null </dev/null); code=$?
  local shown=${label:0:80}
  if [ "$code" -ge 124 ]; then echo "FAIL $shown: exit $code (crash or hang)"; failures=$((failures+1)); return; fi
  if [ "$(printf '%s' "$err" | wc -l)" -gt 3 ]; then echo "FAIL $shown: $(printf '%s' "$err" | wc -l) lines on stderr"; failures=$((failures+1)); fi
  if printf '%s' "$err" | awk 'length($0) > 600 { bad = 1 } END { exit !bad }'; then echo "FAIL $shown: a line longer than 600 characters"; failures=$((failures+1)); fi
  if printf '%s' "$err" | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; then echo "FAIL $shown: a raw control character on stderr"; failures=$((failures+1)); fi
  if [ -n "${want:-}" ] && [ "$code" -ne "$want" ]; then echo "FAIL $shown: exit $code, expected $want: ${err:0:200}"; failures=$((failures+1)); fi
}
options=("run 01 --variant" "run 04 --size" "run 04 --block" "run 04 --sweep" "run 01 --repeat"
         "run 01 --warmup" "run 01 --metrics" "run 01 --format" "run 01 --device"
         "run 01 --view" "run 01 --details" "run 01 --output"
         "check 04 --device" "device --format" "device --device" "metrics --set" "doctor --frobnicate")
for opt in "${options[@]}"; do
  read -r -a words <<<"$opt"
  for value in "${values[@]}"; do
    want=""; always_bad "$value" && want=2
    check "$opt '$value'" "$tool" "${words[@]}" "$value"
  done
done
# Positional names: labs and commands.
for value in "${values[@]}"; do
  [ -z "$value" ] && continue
  want=2
  check "run '$value'" "$tool" run "$value"
  check "list '$value'" "$tool" list "$value"
  check "check '$value'" "$tool" check "$value"
  check "command '$value'" "$tool" "$value"
  check "unknown option '--$value'" "$tool" run 01 "--$value"
done
echo "bad_inputs: $failures failure(s)"
[ "$failures" -eq 0 ]
