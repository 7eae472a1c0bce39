// The launch shape every lab-04 launcher shares: one thread per item (the grid's checks are
// common/one_thread_each.hpp's), with the shared memory the launcher asks for.
#include "coalescing/coalescing_kernels.cuh"

#include "common/one_thread_each.hpp"

namespace cudalab::coalescing {

launch_dims one_thread_each(std::size_t items, unsigned block, std::size_t shared_bytes) {
  return {kernels::one_thread_each_grid(items, block), block, shared_bytes};
}

}  // namespace cudalab::coalescing
