#!/usr/bin/env bash
# scripts/shared-witness.sh [build-dir]: shared memory's two witnesses on this GPU
# (docs/counters.md). Runs every lab with shared memory at odd sizes with the SASS-level
# counters (`shared` set) and the data stage's (`pipe` set), writes one CSV with the card, the
# driver, the date and each command ($OUT or ./gpu-results: shared-witness-<card>.csv), and
# fails unless every SASS-level wavefront and derived conflict count equals the model.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
tool=$build/tools/cudalab/cudalab
out=${OUT:-$PWD/gpu-results}
[ -x "$tool" ] || { echo "shared-witness.sh: $tool not found: build first (scripts/setup.sh)" >&2; exit 2; }
command -v nvidia-smi >/dev/null || { echo "shared-witness.sh: needs a GPU (nvidia-smi not found)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
card=$(nvidia-smi --query-gpu=name --format=csv,noheader -i "${CUDA_VISIBLE_DEVICES:-0}" | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
# One point a line: a name and the arguments of `cudalab run`.
points=(
  "03-1001|03 --size 1001"
  "03-4097|03 --size 4097 --variant tiled"
  "04-1048577|04 --size 1048577"
  "05-2097153|05 --size 2097153"
  "05-16777216|05 --size 16777216"
  "06-8191|06 --size 8191"
  "06-stride-1001|06 --size 1001 --variant shared_stride --sweep full"
  "08-1001|08 --size 1001"
)
: >"$work/commands"
for point in "${points[@]}"; do
  name=${point%%|*}
  args=${point#*|}
  command="cudalab run $args --metrics memory,shared,pipe --repeat 1 --warmup 1"
  echo "shared-witness: $command" >&2
  # shellcheck disable=SC2086
  "$tool" run $args --metrics memory,shared,pipe --repeat 1 --warmup 1 --format csv \
    --output "$work/$name.csv"
  printf '%s|%s\n' "$name" "$command" >>"$work/commands"
done
slug=$(echo "$card" | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
python3 scripts/shared_witness.py merge "$work" "$card" "$driver" "$(date -u +%Y-%m-%d)" \
  "$out/shared-witness-$slug.csv"
