// The launch shapes the lab-06 launchers share, validated before launch so that a bad --size or
// stride becomes one clear line instead of a CUDA launch error.
#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::transpose {

void check_sides(std::size_t rows, std::size_t cols) {
  for (std::size_t side : {rows, cols}) {
    if (side == 0) throw usage_error("matrix side 0: the size must be at least 1");
    if (side > max_side)
      throw usage_error("matrix side " + std::to_string(side) + " is above the lab's limit of " +
                        std::to_string(max_side) + " (two buffers of up to 2 GiB each)");
  }
}

void check_stride(unsigned stride) {
  if (stride < min_stride || stride > max_stride)
    throw usage_error("stride " + std::to_string(stride) + ": the shared-memory sweep takes " +
                      std::to_string(min_stride) + ".." + std::to_string(max_stride) + " words");
}

launch_dims tile_dims(std::size_t rows, std::size_t cols, unsigned block_rows, unsigned side) {
  check_sides(rows, cols);
  if (side != tile_dim && side != wide_tile_dim)
    throw usage_error("tile side " + std::to_string(side) + ": the transposes use 32 or 64");
  if (block_rows != one_element_rows && block_rows != strip_rows)
    throw usage_error("block of 32 x " + std::to_string(block_rows) +
                      ": the transposes are built for 32 x 32 and 32 x 8 threads");
  const auto blocks = [side](std::size_t length) {
    return static_cast<unsigned>((length + side - 1) / side);
  };
  return {dim3(blocks(cols), blocks(rows)), dim3(tile_dim, block_rows)};
}

}  // namespace cudalab::transpose
