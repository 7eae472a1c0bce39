// What lab 07's wrong and right ways that keep the exercise's launch share: the launch (a
// ceil-div grid of `block` threads, a shared tile of block + 2 floats) and the registration, so
// that each way's file holds only its kernel and what it does wrong or right.
#pragma once

#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::graded_way {

// Launches kernel(in, out, n) as the exercise is launched.
template <class Kernel>
debugging::launch_dims launch_like_the_exercise(Kernel kernel, const float* in, float* out,
                                                std::size_t n, unsigned block,
                                                cudaStream_t stream) {
  debugging::check_block(block);
  const debugging::launch_dims d{dim3(static_cast<unsigned>((n + block - 1) / block)), dim3(block)};
  kernel<<<d.grid, d.block, (block + 2) * sizeof(float), stream>>>(in, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::graded_way

// Registers `kernel` as this build's exercise, with `lesson` as its line in `cudalab list`.
#define CUDALAB_BLUR_WAY(kernel, lesson)                                                \
  namespace cudalab::labs {                                                             \
  variant make_debugging_exercise_variant() {                                           \
    return make_exercise_variant(lesson, [](const float* in, float* out, std::size_t n, \
                                            unsigned block, cudaStream_t stream) {      \
      return graded_way::launch_like_the_exercise(kernel, in, out, n, block, stream);   \
    });                                                                                 \
  }                                                                                     \
  }
