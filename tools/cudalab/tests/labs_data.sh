#!/usr/bin/env bash
# labs_data.sh <cudalab> <scripts/labs.py>: `cudalab list --format json` carries what the scripts
# read (labs, variants, roles, sweeps, sizes), and scripts/labs.py answers from it, so no script
# parses the table's text. Needs no GPU.
set -u
tool=$1 labs=$2
fail() { echo "labs_data: $*"; exit 1; }
json=$("$tool" list --format json) || fail "list --format json failed"
python3 - "$json" <<'PY' || fail "the JSON lacks a field the scripts read"
import json, sys
doc = json.loads(sys.argv[1])
assert len(doc["labs"]) == 8, len(doc["labs"])
for lab in doc["labs"]:
    for key in ("id", "number", "title", "readme", "size_unit", "default_size", "max_size",
                "sanitize_size", "variants", "exercise"):
        assert key in lab, (lab["id"], key)
    for v in lab["variants"]:
        for key in ("name", "role", "lesson", "default_block", "block_from_tiles", "sweep"):
            assert key in v, (lab["id"], v["name"], key)
PY
[ "$("$labs" "$tool" ids | wc -l)" -eq 8 ] || fail "ids: not 8 labs"
[ "$("$labs" "$tool" id 4)" = 04-coalescing ] || fail "id 4: not 04-coalescing"
"$labs" "$tool" variants 06 | grep -qx shared_tile || fail "variants 06: no shared_tile"
"$labs" "$tool" variants 06 | grep -qx exercise && fail "variants 06 lists the exercise"
"$labs" "$tool" has-variant 04 aos_float3 || fail "has-variant 04 aos_float3: no"
"$labs" "$tool" has-variant 04 nothing_like_it && fail "has-variant 04 nothing_like_it: yes"
# sanitize.sh's plan: lab 03's tiled at its default tiles (a list, not a range), lab 04's offset
# at the ends of its range, each at the lab's sanitizer size.
plan=$("$labs" "$tool" plan 03 tiled,naive)
[ "$plan" = "03-shared-memory-tiling tiled fixed - $("$tool" list --format json 03 |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["labs"][0]["sanitize_size"])')
03-shared-memory-tiling naive naive - $("$tool" list --format json 03 |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["labs"][0]["sanitize_size"])')" ] ||
  fail "plan 03: $plan"
"$labs" "$tool" plan 04 offset | grep -qE '^04-coalescing offset naive 0,32 [0-9]+$' ||
  fail "plan 04 offset: $("$labs" "$tool" plan 04 offset)"
# An unknown lab or variant: one line, exit 2.
err=$("$labs" "$tool" id 99 2>&1); code=$?
[ "$code" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "id 99: exit $code: $err"
err=$("$labs" "$tool" plan 04 aos_float3,nope 2>&1); code=$?
[ "$code" -eq 2 ] || fail "plan with an unknown variant: exit $code"
echo "labs_data: ok"
