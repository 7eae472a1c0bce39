// What lab 05's right ways share: the exercise's launch (a block of the given size a tile of
// the input, a float of shared memory a thread, one partial sum a block) and its registration,
// so that each right way's file holds only its kernel.
#pragma once

#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::right_way {

// Launches kernel(in, partial, n) as the exercise is launched.
template <class Kernel>
reduction::launch_dims launch_tree(Kernel kernel, const float* in, float* partial, std::size_t n,
                                   unsigned block, cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, block * sizeof(float)};
  kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(in, partial, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::right_way

// Registers `launcher` (a reduction partials launcher) as this build's exercise, with `lesson`
// as its line in `cudalab list`.
#define CUDALAB_REDUCTION_RIGHT_WAY_LAUNCHED(launcher, lesson)                                 \
  namespace cudalab::labs {                                                                    \
  variant make_reduction_exercise_variant() {                                                  \
    return make_partials_variant({"exercise", variant_role::exercise, lesson, launcher, false, \
                                  finish_on::cpu, std::nullopt});                              \
  }                                                                                            \
  }

// The same for a kernel(in, partial, n) launched as the exercise is.
#define CUDALAB_REDUCTION_RIGHT_WAY(kernel, lesson)                                             \
  CUDALAB_REDUCTION_RIGHT_WAY_LAUNCHED(                                                         \
      [](const float* in, float* partial, std::size_t n, unsigned block, cudaStream_t stream) { \
        return right_way::launch_tree(kernel, in, partial, n, block, stream);                   \
      },                                                                                        \
      lesson)
