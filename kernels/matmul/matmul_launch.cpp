// The launch shapes the lab-03 launchers share, validated before launch so that a bad --block,
// --size or tile becomes one clear line instead of a CUDA launch error.
#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::matmul {

void check_side(std::size_t n) {
  if (n == 0) throw usage_error("matrix side 0: the size must be at least 1");
  if (n > max_side)
    throw usage_error("matrix side " + std::to_string(n) + " is above the lab's limit of " +
                      std::to_string(max_side));
}

launch_dims naive_dims(std::size_t n, unsigned threads) {
  check_side(n);
  if (threads < naive_block_x || threads > 1024 || threads % naive_block_x != 0)
    throw usage_error("block of " + std::to_string(threads) +
                      " threads: the naive product launches 32 x (t/32) blocks, so use a "
                      "multiple of 32 from 32 to 1024");
  const unsigned rows = threads / naive_block_x;
  return {dim3(static_cast<unsigned>((n + naive_block_x - 1) / naive_block_x),
               static_cast<unsigned>((n + rows - 1) / rows)),
          dim3(naive_block_x, rows)};
}

launch_dims tiled_dims(std::size_t n, unsigned tile) {
  check_side(n);
  if (!is_built_tile(tile))
    throw usage_error("tile " + std::to_string(tile) +
                      ": the tiled kernels are built for 8, 16 "
                      "and 32");
  const unsigned blocks = tile_steps(n, tile);
  return {dim3(blocks, blocks), dim3(tile, tile)};
}

}  // namespace cudalab::matmul
