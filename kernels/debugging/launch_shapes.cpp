// Lab 07's launch shapes: the checks every launcher makes before it launches.
#include "debugging/debugging_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::debugging {

void check_block(unsigned block, unsigned multiple) {
  if (block == 0 || block > 1024 || block % multiple != 0)
    throw usage_error("block of " + std::to_string(block) + " threads: use 1..1024" +
                      (multiple > 1 ? " in multiples of " + std::to_string(multiple) : ""));
}

std::size_t partial_count(std::size_t n, unsigned block) { return (n + block - 1) / block; }

launch_dims matrix_dims(matrix_shape m, unsigned threads) {
  check_block(threads, 32);
  const dim3 block(32, threads / 32);
  const std::size_t along_x = (m.cols + block.x - 1) / block.x;
  const std::size_t along_y = (m.rows + block.y - 1) / block.y;
  if (along_y > 65535 || along_x > 0x7fffffffu)
    throw usage_error("matrix of " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                      " is too large for a 2D grid of " + std::to_string(threads) +
                      "-thread blocks");
  return {dim3(static_cast<unsigned>(along_x), static_cast<unsigned>(along_y)), block};
}

}  // namespace cudalab::debugging
