// The launch shapes of lab 08's launchers, validated before launch so that a bad --size or
// configuration becomes one clear line instead of a CUDA launch error.
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

#include <iterator>
#include <string>

namespace cudalab::matmul {
namespace {

unsigned blocks_over(std::size_t n, unsigned width) {
  return static_cast<unsigned>((n + width - 1) / width);
}

}  // namespace

const block_tiling& warp_tiled_tiling(unsigned config) {
  if (config >= warp_tiled_configs)
    throw usage_error("config " + std::to_string(config) + ": the built configurations are 0 to " +
                      std::to_string(warp_tiled_configs - 1));
  return warp_tiled_tilings[config];
}

unsigned tuned_pipeline_config(std::size_t n) {
  // How far a swept side is from n, as a ratio (at least 1): the sides double from one to the next.
  const auto distance = [n](std::size_t side) {
    return n > side ? static_cast<double>(n) / side : static_cast<double>(side) / n;
  };
  const tuned_config* nearest = std::begin(tuned_pipeline_configs);
  for (const tuned_config& t : tuned_pipeline_configs)
    if (distance(t.side) < distance(nearest->side)) nearest = &t;
  return nearest->config;
}

launch_dims block_tiled_dims(std::size_t n, const block_tiling& tiling) {
  check_side(n);
  return {dim3(blocks_over(n, tiling.bn), blocks_over(n, tiling.bm)), dim3(tiling.threads)};
}

launch_dims pad_product_dims(std::size_t n) {
  check_side(n);
  const unsigned blocks = blocks_over(padded_side(n), pad_tile);
  return {dim3(blocks, blocks), dim3(pad_tile, pad_block_y)};
}

launch_dims pad_copy_dims(std::size_t side) {
  check_side(side);
  return {dim3(blocks_over(side, copy_block_x), blocks_over(side, copy_block_y)),
          dim3(copy_block_x, copy_block_y)};
}

}  // namespace cudalab::matmul
