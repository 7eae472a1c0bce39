#!/usr/bin/env bash
# scripts/debug.sh [options] <lab> <variant> [kernel]
# Stops cuda-gdb inside a variant's kernel, in batch mode, and prints where it is: the launch
# (info cuda kernels), the focus block and thread, blockIdx/threadIdx/blockDim/gridDim, the
# kernel's arguments, its locals after two `next`s, then the same for thread 5 of the block.
# It runs `cudalab run <lab> --variant <variant> --no-counters --warmup 0 --repeat 1` from the
# debug build (the `debug` preset: -g -G, so every local is visible and lines step in order).
# The kernel comes from the table below, or the optional [kernel] argument; a variant that is not
# in the table stops at the first kernel the run launches (set cuda break_on_launch application).
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

# lab/variant -> the kernel its launch() runs first (kernels/<topic>/*.cu).
kernel_for() {
  case $1 in
    01-thread-indexing/grid_overlaunch|01-thread-indexing/grid_ceil_div) echo affine_guarded_kernel ;;
    01-thread-indexing/grid_underlaunch) echo affine_guarded_kernel ;;
    01-thread-indexing/int_index_overflow) echo affine_int_index_kernel ;;
    01-thread-indexing/int64_index) echo affine_int64_index_kernel ;;
    01-thread-indexing/no_bounds_guard) echo affine_unguarded_kernel ;;
    01-thread-indexing/grid_stride) echo affine_grid_stride_kernel ;;
    01-thread-indexing/matrix_x_rows) echo matrix_x_rows_kernel ;;
    01-thread-indexing/matrix_x_cols) echo matrix_x_cols_kernel ;;
    02-memory-spaces/coeffs_global|02-memory-spaces/host_timer_no_sync) echo coeffs_global_kernel ;;
    02-memory-spaces/event_timed) echo coeffs_global_kernel ;;
    02-memory-spaces/coeffs_constant) echo coeffs_constant_kernel ;;
    02-memory-spaces/constant_divergent) echo constant_divergent_kernel ;;
    02-memory-spaces/coeffs_shared) echo coeffs_shared_kernel ;;
    02-memory-spaces/local_spill) echo local_spill_kernel ;;
    02-memory-spaces/registers) echo registers_kernel ;;
    02-memory-spaces/exercise) echo spill_exercise_kernel ;;
    04-coalescing/aos_float3) echo aos_float3_naive_kernel ;;
    04-coalescing/aos_float3_staged) echo aos_float3_staged_kernel ;;
    04-coalescing/aos_float4) echo aos_float4_kernel ;;
    04-coalescing/soa) echo soa_float3_kernel ;;
    04-coalescing/char_per_thread) echo char_per_thread_kernel ;;
    04-coalescing/uchar4_packed) echo uchar4_packed_kernel ;;
    04-coalescing/offset) echo offset_copy_kernel ;;
    04-coalescing/stride) echo stride_gather_kernel ;;
    04-coalescing/exercise) echo exercise_float3_kernel ;;
    05-reduction/interleaved_divergent) echo reduce_interleaved_divergent_kernel ;;
    05-reduction/interleaved_strided) echo reduce_interleaved_strided_kernel ;;
    05-reduction/sequential|05-reduction/sequential_two_pass) echo reduce_sequential_kernel ;;
    05-reduction/first_add_during_load) echo reduce_first_add_kernel ;;
    05-reduction/warp_shuffle) echo reduce_warp_shuffle_kernel ;;
    05-reduction/grid_stride|05-reduction/grid_stride_int) echo reduce_grid_stride_kernel ;;
    05-reduction/exercise) echo reduce_exercise_kernel ;;
    06-bank-conflicts/copy) echo transpose_copy_kernel ;;
    06-bank-conflicts/naive_row_read) echo transpose_naive_row_read_kernel ;;
    06-bank-conflicts/naive_col_read) echo transpose_naive_col_read_kernel ;;
    06-bank-conflicts/shared_tile) echo transpose_shared_tile_kernel ;;
    06-bank-conflicts/padded) echo transpose_padded_kernel ;;
    06-bank-conflicts/swizzled) echo transpose_swizzled_kernel ;;
    06-bank-conflicts/tile_rows) echo transpose_tile_rows_kernel ;;
    06-bank-conflicts/shared_tile_double) echo transpose_shared_tile_double_kernel ;;
    06-bank-conflicts/padded_double) echo transpose_padded_double_kernel ;;
    06-bank-conflicts/shared_stride) echo shared_stride_copy_kernel ;;
    06-bank-conflicts/exercise) echo transpose_exercise_kernel ;;
    07-debugging/oob_write) echo ramp_unguarded_kernel ;;
    07-debugging/oob_write_fixed) echo ramp_guarded_kernel ;;
    07-debugging/index_overflow) echo byte_fill_int_index_kernel ;;
    07-debugging/index_overflow_fixed) echo byte_fill_64_index_kernel ;;
    07-debugging/missing_sync) echo blur_no_sync_kernel ;;
    07-debugging/missing_sync_fixed) echo blur_tiled_kernel ;;
    07-debugging/divergent_barrier) echo pair_swap_divergent_kernel ;;
    07-debugging/divergent_barrier_fixed) echo pair_swap_kernel ;;
    07-debugging/uninit_read|07-debugging/uninit_read_fixed) echo sum_partials_kernel ;;
    07-debugging/unchecked_launch_fixed) echo chunk_reverse_kernel ;;
    07-debugging/leak|07-debugging/leak_fixed) echo table_scale_kernel ;;
    07-debugging/global_race) echo histogram_racy_kernel ;;
    07-debugging/global_race_atomic) echo histogram_atomic_kernel ;;
    07-debugging/global_race_privatised) echo histogram_privatised_kernel ;;
    07-debugging/swapped_index) echo scale_rows_swapped_kernel ;;
    07-debugging/swapped_index_fixed) echo scale_rows_kernel ;;
    07-debugging/exercise) echo exercise_kernel ;;
    *) echo "" ;;
  esac
}

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
listing=$("$tool" list "$lab" 2>/dev/null) || die "unknown lab '$lab' (cudalab list shows them)" 2
lab_id=$(printf '%s\n' "$listing" | awk 'NR == 1 { print $1 }')
printf '%s\n' "$listing" | awk -v v="$variant" '/^  / && $1 == v { found = 1 } END { exit !found }' ||
  die "unknown variant '$variant' of $lab_id (cudalab list $lab_id shows them)" 2
if ! grep -q '^CMAKE_BUILD_TYPE:STRING=Debug$' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "debug.sh: SKIP: $build is not a Debug build (no -G): use the debug preset (build/debug)" >&2
  exit 77
fi
[ -n "$kernel" ] || kernel=$(kernel_for "$lab_id/$variant")

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
  die "cuda-gdb never stopped in ${kernel:-a kernel}: did the variant launch it? (kernel names: cuobjdump -symbols $tool | grep -i kernel)"
fi
if [ $check -eq 1 ]; then
  # After `cuda thread (5,0,0)`, threadIdx must read x = 5 (print pretty shows "x = 5,").
  after=$(awk '/== thread 5 of the same block/ { on = 1 } on' "$log")
  printf '%s\n' "$after" | grep -Eq "x = 5([^0-9]|$)" ||
    die "cuda-gdb stopped, but thread 5's threadIdx did not read x = 5 after switching focus"
  echo "debug.sh: ok: stopped in ${kernel:-the first kernel}; thread 5 reads threadIdx.x = 5"
fi
