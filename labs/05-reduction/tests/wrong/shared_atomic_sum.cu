// A wrong way to do lab 05's exercise, kept as a test input for the grader: every thread adds
// its element into one shared word with atomicAdd, and thread 0 stores the word. One global
// write a block, as in a tree, but no tree: sm_90 has no shared-memory float add, so nvcc
// emits a compare-and-swap loop (LDS, ATOMS.CAST.SPIN, branch back) that retires one lane of
// the word's contenders a pass. Each pass reads the shared word again, so a 256-thread block
// needs at least 256 shared load wavefronts where sequential addressing needs 45 in all.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void reduce_shared_atomic_sum_kernel(const float* in, float* partial, unsigned n) {
  __shared__ float block_sum;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) block_sum = 0.0f;
  __syncthreads();
  atomicAdd(&block_sum, i < n ? in[i] : 0.0f);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_REDUCTION_WRONG_WAY(reduce_shared_atomic_sum_kernel,
                            "wrong way: atomicAdd of every element into one shared word")
