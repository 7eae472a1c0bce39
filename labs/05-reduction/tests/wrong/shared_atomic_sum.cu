// A wrong way to do lab 05's exercise, kept as a test input for the grader: every thread adds
// its element into one shared word with atomicAdd, and thread 0 stores the word. One global
// write a block, as in a tree, but no tree: sm_90 has no shared-memory float add, so nvcc
// emits a compare-and-swap loop (LDS, ATOMS.CAST.SPIN, branch back) that retires one lane of
// the word's contenders a pass. Each pass reads the shared word again, so a 256-thread block
// needs at least 256 shared load wavefronts where sequential addressing needs 45 in all.
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

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

reduction::launch_dims launch_exercise(const float* in, float* partial, std::size_t n,
                                       unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, 0};
  reduce_shared_atomic_sum_kernel<<<d.grid, d.block, 0, stream>>>(in, partial,
                                                                  static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_reduction_exercise_variant() {
  return make_partials_variant({"exercise", variant_role::exercise,
                                "wrong way: atomicAdd of every element into one shared word",
                                &launch_exercise, false, finish_on::cpu, std::nullopt});
}

}  // namespace cudalab::labs
