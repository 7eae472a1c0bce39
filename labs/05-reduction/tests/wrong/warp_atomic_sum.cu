// A wrong way to do lab 05's exercise, kept as a test input for the grader: each warp folds
// its 32 elements with __shfl_down_sync (right), then lane 0 of every warp adds the warp's sum
// into the block's partial sum with atomicAdd (wrong: the warps of a block never meet in
// shared memory). Full warps, no shared traffic, no conflicts: only the global writes, one
// REDG a warp instead of one store a block, show that the block's tree is missing.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void reduce_warp_atomic_sum_kernel(const float* in, float* partial, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) partial[blockIdx.x] = 0.0f;
  __syncthreads();
  float sum = i < n ? in[i] : 0.0f;
  for (unsigned offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(&partial[blockIdx.x], sum);
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_REDUCTION_WRONG_WAY(reduce_warp_atomic_sum_kernel,
                            "wrong way: a shuffle a warp, then one atomicAdd a warp")
