#!/usr/bin/env bash
# Fails when a tracked file cites documents kept outside the repository (design notes, counter
# notes, a sibling folder): what the code relies on belongs in docs/ (CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each word is split by a bracket so that this file does not match its own search.
pattern='desig[n] section|desig[n]\.md|cupt[i]-notes|\.\./share[d]|/work/share[d]|/work/mai[n]'
if hits=$(git grep -nIiE "$pattern" -- .); then
  echo "standalone.sh: these lines cite something outside the repository; put what they rely on" \
       "in docs/ and point there:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "standalone.sh: the repository cites nothing outside itself"
