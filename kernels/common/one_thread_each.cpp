#include "common/one_thread_each.hpp"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::kernels {

unsigned one_thread_each_grid(std::size_t items, unsigned block) {
  if (block == 0 || block > 1024)
    throw usage_error("block of " + std::to_string(block) + " threads: use 1..1024");
  if (items == 0) throw usage_error("nothing to launch: the size must be at least 1");
  const std::size_t blocks = (items + block - 1) / block;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  return static_cast<unsigned>(blocks);
}

}  // namespace cudalab::kernels
