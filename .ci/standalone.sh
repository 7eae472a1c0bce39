#!/usr/bin/env bash
# Fails when a tracked file cites documents kept outside the repository (design notes, counter
# notes, a sibling folder): what the code relies on belongs in docs/ (CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='design section|design\.md|cupti-notes|\.\./shared|/work/shared|/work/main'
if hits=$(git grep -nIiE "$pattern" -- . ':!.ci/standalone.sh'); then
  echo "standalone.sh: these lines cite something outside the repository; put what they rely on" \
       "in docs/ and point there:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "standalone.sh: the repository cites nothing outside itself"
