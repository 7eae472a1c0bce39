// What lab 03's wrong and right ways that keep the exercise's launch share: the launch (tile x
// tile threads a block, ceil(n / tile) x ceil(n / tile) blocks) and the registration, so that
// each way's file holds only its kernel and what it does wrong or right.
#pragma once

#include "matmul_variants.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::graded_way {

// Launches kernel(a, b, c, n) as the exercise is launched.
template <class Kernel>
matmul::launch_dims launch_like_the_exercise(Kernel kernel, const float* a, const float* b,
                                             float* c, std::size_t n, unsigned tile,
                                             cudaStream_t stream) {
  const matmul::launch_dims d = matmul::tiled_dims(n, tile);
  kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::graded_way

// Registers `kernel` as this build's exercise, with `lesson` as its line in `cudalab list`.
#define CUDALAB_MATMUL_WAY(kernel, lesson)                                                         \
  namespace cudalab::labs {                                                                        \
  variant make_matmul_exercise_variant() {                                                         \
    const auto launch = [](const float* a, const float* b, float* c, std::size_t n, unsigned tile, \
                           cudaStream_t stream) {                                                  \
      return graded_way::launch_like_the_exercise(kernel, a, b, c, n, tile, stream);               \
    };                                                                                             \
    return make_kernel_variant(                                                                    \
        {"exercise", variant_role::exercise, lesson, launch, shape_from::fixed, std::nullopt});    \
  }                                                                                                \
  }
