// What lab 06's wrong and right ways share: the exercise's launch (32 x 32 threads a 32 x 32
// tile) and its registration, so that each way's file (tests/wrong/*.cu, tests/right/*.cu) holds
// only its kernel and what it does.
#pragma once

#include "transpose_variants.hpp"

#include "transpose/transpose_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::graded_way {

// Launches kernel(inputs..., rows, cols) as the exercise is launched.
template <class Kernel, class... Inputs>
transpose::launch_dims launch_over_the_tiles(Kernel kernel, std::size_t rows, std::size_t cols,
                                             cudaStream_t stream, Inputs... inputs) {
  const transpose::launch_dims d = transpose::tile_dims(rows, cols, 32);
  kernel<<<d.grid, d.block, 0, stream>>>(inputs..., static_cast<unsigned>(rows),
                                         static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::graded_way

// Registers `launcher` (a transpose::float_launcher) as this build's exercise, with `lesson` as
// its line in `cudalab list`.
#define CUDALAB_TRANSPOSE_WAY_LAUNCHED(launcher, lesson)                        \
  namespace cudalab::labs {                                                     \
  transpose_spec transpose_exercise_spec() {                                    \
    auto s = transpose_spec::named("exercise", variant_role::exercise, lesson); \
    s.float_launch = launcher;                                                  \
    return s;                                                                   \
  }                                                                             \
  }

// The same for a kernel(in, out, rows, cols) launched as the exercise is.
#define CUDALAB_TRANSPOSE_WAY(kernel, lesson)                                                    \
  CUDALAB_TRANSPOSE_WAY_LAUNCHED(                                                                \
      [](const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream) { \
        return graded_way::launch_over_the_tiles(kernel, rows, cols, stream, in, out);           \
      },                                                                                         \
      lesson)
