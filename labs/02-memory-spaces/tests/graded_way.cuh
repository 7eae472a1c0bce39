// What lab 02's wrong and right ways share: the exercise's launch (one thread an element, the
// spill step) and its registration, so that each way's file holds only its kernel and what it
// does wrong or right.
#pragma once

#include "memory_lab.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::graded_way {

// Launches kernel(x, out, n, spill_step) as the exercise is launched.
template <class Kernel>
memory::launch_dims launch_one_thread_each(Kernel kernel, const float* x, float* out, std::size_t n,
                                           unsigned block, cudaStream_t stream) {
  const memory::launch_dims d = memory::one_thread_each(n, block);
  kernel<<<d.grid, d.block, 0, stream>>>(x, out, n, spill_step);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::graded_way

// Registers `kernel` as this build's exercise, with `lesson` as its line in `cudalab list`.
#define CUDALAB_MEMORY_WAY(kernel, lesson)                                                     \
  namespace cudalab::labs {                                                                    \
  variant make_memory_exercise_variant() {                                                     \
    const memory_launcher launch = [](const float* x, const float*, float* out, std::size_t n, \
                                      unsigned block, cudaStream_t stream) {                   \
      return graded_way::launch_one_thread_each(kernel, x, out, n, block, stream);             \
    };                                                                                         \
    return make_memory_kernel_variant({"exercise", variant_role::exercise, lesson, launch,     \
                                       memory_output::spill_sum, std::nullopt});               \
  }                                                                                            \
  }
