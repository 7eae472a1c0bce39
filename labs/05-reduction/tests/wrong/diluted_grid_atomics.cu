// A wrong way to do lab 05's exercise, kept as a test input for the grader: the grid padded to
// eight times the tree's blocks so that atomics look like one write a block. Each block takes an
// eighth of a tree block's elements, its first warp folds them with __shfl_down_sync, and lane 0
// adds the sum into the tree block's partial sum with atomicAdd; a first kernel zeroes the
// partial sums. That is nine writes a tree block (a store and eight REDG) but one and an eighth
// a launched block: a bound taken from the exercise's own grid passes it. The grader bounds the
// writes by the blocks sequential launches at the same size, and fails it there.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

constexpr unsigned pieces = 8;  // launched blocks a tree block

__global__ void zero_partials_kernel(float* partial, unsigned blocks) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < blocks) partial[b] = 0.0f;
}

__global__ void reduce_diluted_kernel(const float* in, float* partial, unsigned n) {
  const unsigned share = blockDim.x / pieces;  // elements a launched block
  if (threadIdx.x >= share) return;            // whole warps leave: no divergence
  const unsigned tree_block = blockIdx.x / pieces;
  const unsigned i = tree_block * blockDim.x + (blockIdx.x % pieces) * share + threadIdx.x;
  float sum = i < n ? in[i] : 0.0f;
  for (unsigned offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(&partial[tree_block], sum);
}

reduction::launch_dims launch_diluted(const float* in, float* partial, std::size_t n,
                                      unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const unsigned tree = reduction::tree_blocks(n, block);
  zero_partials_kernel<<<(tree + block - 1) / block, block, 0, stream>>>(partial, tree);
  CUDALAB_CHECK_LAUNCH();
  reduce_diluted_kernel<<<tree * pieces, block, 0, stream>>>(in, partial, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  // It tells the harness the tree's grid, as a cheat would: the counters see the real one.
  return reduction::launch_dims{tree, block, 0};
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_REDUCTION_WAY_LAUNCHED(&cudalab::labs::launch_diluted,
                               "wrong way: atomics spread over eight times the blocks")
