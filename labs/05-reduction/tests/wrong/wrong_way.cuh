// What lab 05's wrong ways share: the exercise's launch (one thread an element, the tree's
// blocks, partial sums finished on the CPU) and its registration, so that each wrong way's file
// holds only its kernel and what it does wrong.
#pragma once

#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::wrong_way {

// Launches kernel(in, partial, n) over the exercise's blocks with no dynamic shared memory.
template <class Kernel>
reduction::launch_dims launch_over_the_tree_blocks(Kernel kernel, const float* in, float* partial,
                                                   std::size_t n, unsigned block,
                                                   cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block, 0};
  kernel<<<d.grid, d.block, 0, stream>>>(in, partial, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::wrong_way

// Registers `kernel` as this build's exercise, with `lesson` as its line in `cudalab list`.
#define CUDALAB_REDUCTION_WRONG_WAY(kernel, lesson)                                            \
  namespace cudalab::labs {                                                                    \
  variant make_reduction_exercise_variant() {                                                  \
    const partials_launcher<float> launch = [](const float* in, float* partial, std::size_t n, \
                                               unsigned block, cudaStream_t stream) {          \
      return wrong_way::launch_over_the_tree_blocks(kernel, in, partial, n, block, stream);    \
    };                                                                                         \
    return make_partials_variant({"exercise", variant_role::exercise, lesson, launch, false,   \
                                  finish_on::cpu, std::nullopt});                              \
  }                                                                                            \
  }
