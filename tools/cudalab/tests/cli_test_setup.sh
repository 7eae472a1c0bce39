# cli_test_setup.sh: sourced first by the tool's shell tests, as
#   . "$(dirname "$0")/cli_test_setup.sh" <test name> "$@"
# It hides the GPU (each test reads only the model's predictions), gives the test a scratch
# folder ($dir) removed on exit, and the two checks every one of them makes.
set -u
test_name=$1
tool=$2
export CUDA_VISIBLE_DEVICES=
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "$test_name: $*"; exit 1; }

# expect_refused_in_one_line <what> <exit code> <stderr>: a refusal before any work is exit 2
# and a single line, so that a script can show it as it is.
expect_refused_in_one_line() {
  local what=$1 code=$2 err=$3
  [ "$code" -eq 2 ] || fail "$what: exit $code, expected 2 (${err:0:300})"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$what: more than one line: $err"
  [ "${#err}" -le 120 ] || fail "$what: the line is ${#err} columns, more than 120: $err"
}
