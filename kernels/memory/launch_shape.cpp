// The launch shape every lab-02 launcher shares: one thread per element, validated before launch
// so a bad --block or --size becomes one clear line instead of a CUDA launch error.
#include "memory/memory_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::memory {

launch_dims one_thread_each(std::size_t n, unsigned block) {
  if (block == 0 || block > 1024)
    throw usage_error("block of " + std::to_string(block) + " threads: use 1..1024");
  if (n == 0) throw usage_error("nothing to launch: the size must be at least 1");
  const std::size_t blocks = (n + block - 1) / block;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  return {static_cast<unsigned>(blocks), block};
}

}  // namespace cudalab::memory
