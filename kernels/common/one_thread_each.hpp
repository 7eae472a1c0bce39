// The grid of a 1D launch with one thread per item, checked on the host before any launch, so a
// bad --block or --size becomes one clear line instead of a CUDA launch error. The launchers of
// labs 02 and 04 share it; their kernels stay in their own files.
#pragma once

#include <cstddef>

namespace cudalab::kernels {

// ceil(items / block) blocks; throws cudalab::usage_error when block is not 1..1024, items is 0
// or the grid would pass the 2^31-1 blocks a launch may have.
unsigned one_thread_each_grid(std::size_t items, unsigned block);

}  // namespace cudalab::kernels
