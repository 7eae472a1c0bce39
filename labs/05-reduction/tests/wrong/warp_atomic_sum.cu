// A wrong way to do lab 05's exercise, kept as a test input for the grader: each warp folds
// its 32 elements with __shfl_down_sync (right), then lane 0 of every warp adds the warp's sum
// into the block's partial sum with atomicAdd (wrong: the warps of a block never meet in
// shared memory). Full warps, no shared traffic, no conflicts: only the global writes, one
// REDG a warp instead of one store a block, show that the block's tree is missing.
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

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

reduction::launch_dims launch_exercise(const float* in, float* partial, std::size_t n,
                                       unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, 0};
  reduce_warp_atomic_sum_kernel<<<d.grid, d.block, 0, stream>>>(in, partial,
                                                                static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_reduction_exercise_variant() {
  return make_partials_variant({"exercise", variant_role::exercise,
                                "wrong way: a shuffle a warp, then one atomicAdd a warp",
                                &launch_exercise, false, finish_on::cpu, std::nullopt});
}

}  // namespace cudalab::labs
