// The launch shape every lab-02 launcher shares: one thread per element (the grid's checks are
// common/one_thread_each.hpp's).
#include "memory/memory_kernels.cuh"

#include "common/one_thread_each.hpp"

namespace cudalab::memory {

launch_dims one_thread_each(std::size_t n, unsigned block) {
  return {kernels::one_thread_each_grid(n, block), block};
}

}  // namespace cudalab::memory
