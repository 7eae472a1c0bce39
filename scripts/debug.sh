#!/usr/bin/env bash
# scripts/debug.sh [options] <lab> <variant> [kernel]
# Stops cuda-gdb inside a variant's kernel, in batch mode, and prints where it is: the launch
# (info cuda kernels), the focus block and thread, blockIdx/threadIdx/blockDim/gridDim, the
# kernel's arguments, its locals after two `next`s, then the same for thread 5 of the block.
# It runs `cudalab run <lab> --variant <variant> --no-counters --warmup 0 --repeat 1` from the
# debug build (the `debug` preset: -g -G, so every local is visible and lines step in order).
# It stops at the first kernel the variant launches (set cuda break_on_launch application: the
# run launches nothing of its own before the variant), or at [kernel] when it is given (a kernel
# name as `scripts/cuobjdump.sh -symbols` lists it), so no script keeps a table of kernels.
# Options:
#   --build DIR   the debug build (default build/debug: cmake --preset debug && cmake --build --preset debug)
#   --size N      problem size (default 1000: small, and not a multiple of the block)
#   --check       exit 0 only if cuda-gdb stopped in the kernel and thread 5 reads threadIdx.x = 5
#   -h, --help    this text
# Exit status: 0 done, 1 failed, 2 bad arguments, 77 skipped (no cuda-gdb, no GPU, or not a
# debug build).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "debug.sh: $1" >&2; exit "${2:-1}"; }

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/debug
size=1000
check=0
positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --check) check=1; shift ;;
    --build|--size)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)" 2
      case $1 in --build) build=$2 ;; --size) size=$2 ;; esac
      shift 2 ;;
    -*) die "unknown option '$1' (see --help)" 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -ge 2 ] || die "usage: scripts/debug.sh <lab> <variant> [kernel] (see --help)" 2
[ ${#positional[@]} -le 3 ] || die "too many arguments: ${positional[*]} (see --help)" 2
lab=${positional[0]}
variant=${positional[1]}
kernel=${positional[2]:-}

tool=$build/tools/cudalab/cudalab
[ -x "$tool" ] || die "$tool not found: build the debug preset first (cmake --preset debug && cmake --build --preset debug)"
lab_id=$("$root/scripts/labs.py" "$tool" id "$lab") || exit 2  # it says why
"$root/scripts/labs.py" "$tool" has-variant "$lab_id" "$variant" ||
  die "unknown variant '$variant' of $lab_id (cudalab list $lab_id shows them)" 2
if ! grep -q '^CMAKE_BUILD_TYPE:STRING=Debug$' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "debug.sh: SKIP: $build is not a Debug build (no -G): use the debug preset (build/debug)" >&2
  exit 77
fi

cuda_gdb=${CUDA_GDB:-$(command -v cuda-gdb || true)}
[ -n "$cuda_gdb" ] || [ ! -x /usr/local/cuda/bin/cuda-gdb ] || cuda_gdb=/usr/local/cuda/bin/cuda-gdb
[ -n "$cuda_gdb" ] || { echo "debug.sh: SKIP: cuda-gdb not found on PATH, in \$CUDA_GDB or /usr/local/cuda/bin" >&2; exit 77; }
set +e
why=$("$tool" device 2>&1 >/dev/null)
device_status=$?
set -e
[ $device_status -ne 3 ] || { echo "debug.sh: SKIP: no usable CUDA device (${why%%$'\n'*})" >&2; exit 77; }

commands=$(mktemp)
log=$(mktemp)
trap 'rm -f "$commands" "$log"' EXIT
{
  echo "set pagination off"
  echo "set confirm off"
  echo "set print pretty on"
  echo "set breakpoint pending on"
  if [ -n "$kernel" ]; then
    echo "set cuda break_on_launch none"
    echo "break $kernel"
  else
    echo "set cuda break_on_launch application"
  fi
  echo "run"
  echo 'echo \n== the launch, and the focus (block, thread)\n'
  echo "info cuda kernels"
  echo "cuda kernel block thread"
  echo "print blockIdx"
  echo "print threadIdx"
  echo "print blockDim"
  echo "print gridDim"
  echo 'echo \n== the arguments\n'
  echo "info args"
  echo 'echo \n== two lines further: the locals of this thread\n'
  echo "next"
  echo "next"
  echo "info locals"
  echo 'echo \n== thread 5 of the same block\n'
  echo "cuda thread (5,0,0)"
  echo "print threadIdx"
  echo "info locals"
  echo "backtrace"
  echo "kill"
  echo "quit"
} >"$commands"

echo "debug.sh: cuda-gdb, breakpoint ${kernel:-on the first kernel launch}, running cudalab run $lab_id --variant $variant --size $size"
set +e
"$cuda_gdb" -batch -x "$commands" --args "$tool" run "$lab_id" --variant "$variant" --size "$size" \
  --no-counters --warmup 0 --repeat 1 2>&1 | tee "$log"
set -e
# cuda-gdb announces a stop in device code with "[Switching focus to CUDA kernel ...]".
if ! grep -Eq "Switching focus to CUDA kernel|hit Breakpoint 1" "$log"; then
  die "cuda-gdb never stopped in ${kernel:-a kernel}: did the variant launch it? (scripts/cuobjdump.sh -symbols lists kernels)"
fi
if [ $check -eq 1 ]; then
  # After `cuda thread (5,0,0)`, threadIdx must read x = 5 (print pretty shows "x = 5,").
  after=$(awk '/== thread 5 of the same block/ { on = 1 } on' "$log")
  printf '%s\n' "$after" | grep -Eq "x = 5([^0-9]|$)" ||
    die "cuda-gdb stopped, but thread 5's threadIdx did not read x = 5 after switching focus"
  echo "debug.sh: ok: stopped in ${kernel:-the first kernel}; thread 5 reads threadIdx.x = 5"
fi
