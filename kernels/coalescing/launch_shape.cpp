// The launch shape every lab-04 launcher shares: one thread per item, validated before launch
// so a bad --block or --size becomes one clear line instead of a CUDA launch error.
#include "coalescing/coalescing_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::coalescing {

launch_dims one_thread_each(std::size_t items, unsigned block, std::size_t shared_bytes) {
  if (block == 0 || block > 1024)
    throw usage_error("block of " + std::to_string(block) + " threads: use 1..1024");
  if (items == 0) throw usage_error("nothing to launch: the size must be at least 1");
  const std::size_t blocks = (items + block - 1) / block;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  return {static_cast<unsigned>(blocks), block, shared_bytes};
}

}  // namespace cudalab::coalescing
