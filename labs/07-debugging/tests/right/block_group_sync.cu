// A right way to do lab 07's exercise, kept as a test input for the grader: both bugs fixed in
// other words than the solution's. The barrier is cooperative groups' block sync (the same
// BAR.SYNC as __syncthreads()), and the threads past the end leave after it, instead of a guard
// on the store; none leaves before the barrier, which every thread of the block must reach. The
// grader must pass it: right with and without the sanitizer, memcheck and racecheck clean, the
// canary intact and the fixed blur's sectors.
#include "../graded_way.cuh"

#include <cooperative_groups.h>

namespace cudalab::labs {
namespace {

__global__ void block_group_sync_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float tile[];  // blockDim.x + 2 floats: slot t + 1 holds element t
  const cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = first + threadIdx.x;
  const unsigned t = threadIdx.x + 1;
  tile[t] = in[debugging::clamped(i, n)];
  if (threadIdx.x == 0) tile[0] = in[debugging::clamped(debugging::left_of(first), n)];
  if (threadIdx.x == blockDim.x - 1)
    tile[blockDim.x + 1] = in[debugging::clamped(first + blockDim.x, n)];
  block.sync();
  if (i >= n) return;  // after the barrier: the tail block's extra threads store nothing
  out[i] = debugging::blur3(tile[t - 1], tile[t], tile[t + 1]);
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_BLUR_WAY(block_group_sync_kernel,
                 "right way: a block group's sync, then the extra threads leave")
