#!/usr/bin/env bash
# metric_glossary.sh <cudalab> <docs/metrics.md>: every metric of the catalogue has its paragraph
# in the glossary, under its short name and beside its CUPTI name, so that an entry added to
# the catalogue without its documentation fails here.
set -euo pipefail
tool=$1
glossary=$2
missing=0
# `cudalab metrics`: a line per metric, "<short name>  <exactness>  <CUPTI name or formula>",
# its meaning indented under it.
while read -r short_name _ source; do
  if ! grep -qF "**$short_name**" "$glossary"; then
    echo "metric_glossary.sh: $short_name has no paragraph in $glossary" >&2
    missing=1
  fi
  case $source in
    *" "*) ;;  # a derived metric: its formula, not a CUPTI name
    *) grep -qF "\`$source\`" "$glossary" ||
         { echo "metric_glossary.sh: $short_name's CUPTI name $source is not in $glossary" >&2; missing=1; } ;;
  esac
done < <("$tool" metrics | awk '/^[a-z]/ && NF >= 3 { print }' | sed '/^sets:/,$d')
[ $missing -eq 0 ] && echo "metric_glossary.sh: every catalogue metric is in $glossary"
exit $missing
