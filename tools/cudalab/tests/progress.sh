#!/usr/bin/env bash
# progress.sh <cudalab>: a run of more than a second shows what it is doing on stderr when
# stderr is a terminal (here a pseudo-terminal from `script`), and nothing in a pipe or in CI.
# Without a GPU (hidden). The usual one-second delay is set to none, so the test does not depend
# on how fast this machine predicts; a run of many points still shows each step.
set -u
tool=$1
export CUDA_VISIBLE_DEVICES= CUDALAB_PROGRESS_AFTER_MS=0
long=(run 04 --variant aos_float3_staged,aos_float3 --block 32..1024:32 --size 2^16..2^18 --format csv)
fail() { echo "progress: $*"; exit 1; }
command -v script >/dev/null || fail "needs script(1) (util-linux / bsdutils) for a pseudo-terminal"
printf -v cmd '%q ' "$tool" "${long[@]}"
on_terminal=$(env -u CI script -qec "$cmd 2>&1 >/dev/null" /dev/null)
printf '%s' "$on_terminal" | grep -q "predicting 04-coalescing/" ||
  fail "no progress line on a terminal: ${on_terminal:0:300}"
printf '%s' "$on_terminal" | grep -q $'\r\033\\[K' || fail "the progress line does not rewrite itself"
in_ci=$(CI=true script -qec "$cmd 2>&1 >/dev/null" /dev/null)
printf '%s' "$in_ci" | grep -q "predicting" && fail "a progress line in CI: ${in_ci:0:300}"
in_pipe=$(env -u CI "$tool" "${long[@]}" 2>&1 >/dev/null)
printf '%s' "$in_pipe" | grep -q "predicting" && fail "a progress line in a pipe"
# With the usual delay, a run that ends within a second prints no progress at all.
printf -v quick '%q ' "$tool" run 01 --format csv
quick_run=$(env -u CI -u CUDALAB_PROGRESS_AFTER_MS script -qec "$quick 2>&1 >/dev/null" /dev/null)
printf '%s' "$quick_run" | grep -q "predicting" && fail "a quick run showed progress"
echo "progress: ok (terminal: shown; CI, pipes and quick runs: none)"
