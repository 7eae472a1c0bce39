// A wrong way to do lab 05's exercise, kept as a test input for the grader: every thread adds
// its element straight into its block's partial sum with atomicAdd. No tree, no shared memory:
// the sums are right (up to the order of float additions, which changes from run to run), the
// warps never diverge (32 threads an instruction) and there are no bank conflicts, because
// there is no shared traffic at all. What gives it away is its global writes: a REDG a warp,
// 8 a 256-thread block plus the store that zeroes the sum, where a tree writes once a block.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void reduce_atomic_block_sum_kernel(const float* in, float* partial, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) partial[blockIdx.x] = 0.0f;
  __syncthreads();
  if (i < n) atomicAdd(&partial[blockIdx.x], in[i]);
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_REDUCTION_WRONG_WAY(reduce_atomic_block_sum_kernel,
                            "wrong way: atomicAdd of every element into its block's sum")
