// A wrong way to do lab 05's exercise, kept as a test input for the grader: every thread adds
// its element straight into its block's partial sum with atomicAdd. No tree, no shared memory:
// the sums are right (up to the order of float additions, which changes from run to run), the
// warps never diverge (32 threads an instruction) and there are no bank conflicts, because
// there is no shared traffic at all. What gives it away is its global writes: a REDG a warp,
// 8 a 256-thread block plus the store that zeroes the sum, where a tree writes once a block.
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

__global__ void reduce_atomic_block_sum_kernel(const float* in, float* partial, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) partial[blockIdx.x] = 0.0f;
  __syncthreads();
  if (i < n) atomicAdd(&partial[blockIdx.x], in[i]);
}

reduction::launch_dims launch_exercise(const float* in, float* partial, std::size_t n,
                                       unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, 0};
  reduce_atomic_block_sum_kernel<<<d.grid, d.block, 0, stream>>>(in, partial,
                                                                 static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_reduction_exercise_variant() {
  return make_partials_variant({"exercise", variant_role::exercise,
                                "wrong way: atomicAdd of every element into its block's sum",
                                &launch_exercise, false, finish_on::cpu, std::nullopt});
}

}  // namespace cudalab::labs
