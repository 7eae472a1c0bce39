// Lab 05 exercise, reference solution: sequential addressing.
//
// The stride starts at half the block and halves; at each step the first s threads add their
// partner tid + s. The active threads are contiguous, so whole warps are either all busy or
// all idle (no divergence: the `if` is predicated), and a warp reads 32 consecutive words,
// one per bank (no conflicts). For a 256-thread block the shared traffic falls from 95 load
// and 55 store wavefronts to 25 and 20.
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

__global__ void reduce_exercise_kernel(const float* in, float* partial, unsigned n) {
  extern __shared__ float sdata[];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

reduction::launch_dims launch_exercise(const float* in, float* partial, std::size_t n,
                                       unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, block * sizeof(float)};
  reduce_exercise_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(in, partial,
                                                                      static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_reduction_exercise_variant() {
  return make_partials_variant({"exercise", variant_role::exercise,
                                "reference solution: sequential addressing", &launch_exercise,
                                false, finish_on::cpu, std::nullopt});
}

}  // namespace cudalab::labs
