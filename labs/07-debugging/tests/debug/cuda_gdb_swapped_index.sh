#!/usr/bin/env bash
# tests/debug/cuda_gdb_swapped_index.sh [--build DIR]: cuda-gdb, in batch mode on the debug build,
# finds lab 07's swapped_index: it stops at the kernel's store in block (1,0,0), thread (3,2,0),
# and prints row and col. With 32 x 8 blocks that thread belongs at row 2, column 35; the
# swapped kernel computes row 35, column 2. The test passes only when the breakpoint is hit and
# both printed values are the swapped ones. Exit 77: skipped (no debug build, cuda-gdb or GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
build=$root/build/debug
[ "${1:-}" != --build ] || build=$2
tool=$build/tools/cudalab/cudalab
[ -x "$tool" ] || { echo "SKIP: $tool not found (cmake --preset debug && cmake --build --preset debug)" >&2; exit 77; }
grep -q '^CMAKE_BUILD_TYPE:STRING=Debug$' "$build/CMakeCache.txt" 2>/dev/null ||
  { echo "SKIP: $build is not a Debug build" >&2; exit 77; }
cuda_gdb=${CUDA_GDB:-$(command -v cuda-gdb || true)}
[ -n "$cuda_gdb" ] || [ ! -x /usr/local/cuda/bin/cuda-gdb ] || cuda_gdb=/usr/local/cuda/bin/cuda-gdb
[ -n "$cuda_gdb" ] || { echo "SKIP: cuda-gdb not found" >&2; exit 77; }
set +e
"$tool" device >/dev/null 2>&1
[ $? -ne 3 ] || { echo "SKIP: no usable CUDA device" >&2; exit 77; }
set -e

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The batch file the README walks through, as shipped.
"$cuda_gdb" -batch -x "$root/labs/07-debugging/swapped_index.gdb" --args "$tool" run 07-debugging --variant swapped_index \
  --size 20000 --block 256 --no-counters --warmup 0 --repeat 1 2>&1 | tee "$log" || true

grep -Eq "hit Breakpoint 1|Switching focus to CUDA kernel" "$log" ||
  { echo "FAIL: cuda-gdb never stopped at silent_bugs.cu:$line" >&2; exit 1; }
after=$(awk '/== the swapped index/ { on = 1 } on' "$log")
printf '%s\n' "$after" | grep -Eq '^\$[0-9]+ = 35$' || { echo "FAIL: row did not print 35" >&2; exit 1; }
printf '%s\n' "$after" | grep -Eq '^\$[0-9]+ = 2$' || { echo "FAIL: col did not print 2" >&2; exit 1; }
echo "ok: cuda-gdb stopped in block (1,0,0) thread (3,2,0) and printed row 35, col 2 (should be 2, 35)"
