// A right way to do lab 05's exercise, kept as a test input for the grader: the block's tree
// written by CUB's BlockReduce, inside the learner's own kernel (a library's block-wide
// primitive, not a library's kernel). Its specialisation is the block size, so the launcher
// runs the instance of the block it is given. The grader must pass it.
#include "../graded_way.cuh"

#include <cub/block/block_reduce.cuh>

namespace cudalab::labs {
namespace {

template <int Block>
__global__ void cub_block_reduce_kernel(const float* in, float* partial, unsigned n) {
  using block_reduce = cub::BlockReduce<float, Block>;
  __shared__ typename block_reduce::TempStorage scratch;
  const unsigned i = blockIdx.x * Block + threadIdx.x;
  const float total = block_reduce(scratch).Sum(i < n ? in[i] : 0.0f);
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

reduction::launch_dims launch_right_way(const float* in, float* partial, std::size_t n,
                                        unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, 0};
  const auto count = static_cast<unsigned>(n);
  switch (block) {
    case 32:
      cub_block_reduce_kernel<32><<<d.grid, d.block, 0, stream>>>(in, partial, count);
      break;
    case 64:
      cub_block_reduce_kernel<64><<<d.grid, d.block, 0, stream>>>(in, partial, count);
      break;
    case 128:
      cub_block_reduce_kernel<128><<<d.grid, d.block, 0, stream>>>(in, partial, count);
      break;
    case 256:
      cub_block_reduce_kernel<256><<<d.grid, d.block, 0, stream>>>(in, partial, count);
      break;
    case 512:
      cub_block_reduce_kernel<512><<<d.grid, d.block, 0, stream>>>(in, partial, count);
      break;
    case 1024:
      cub_block_reduce_kernel<1024><<<d.grid, d.block, 0, stream>>>(in, partial, count);
      break;
    default:
      throw error("cub_block_reduce: no instance for " + std::to_string(block) + " threads");
  }
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_REDUCTION_WAY_LAUNCHED(&cudalab::labs::launch_right_way,
                               "right way: the block's tree by cub::BlockReduce")
