// What lab 05's wrong and right ways share: the exercise's launch (one thread an element over
// the tree's blocks, partial sums finished on the CPU) and its registration, so that each way's
// file (tests/wrong/*.cu, tests/right/*.cu) holds only its kernel and what it does.
#pragma once

#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs::graded_way {

// Launches kernel(in, partial, n) over the exercise's blocks, with `shared_floats` floats of
// dynamic shared memory a thread (the exercise's tree has 1; a kernel of atomics needs none).
template <class Kernel>
reduction::launch_dims launch_over_the_tree_blocks(Kernel kernel, const float* in, float* partial,
                                                   std::size_t n, unsigned block,
                                                   cudaStream_t stream, unsigned shared_floats) {
  reduction::check_block(block);
  reduction::check_size(n);
  const reduction::launch_dims d{reduction::tree_blocks(n, block), block,
                                 shared_floats * block * sizeof(float)};
  kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(in, partial, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::graded_way

// Registers `launcher` (a reduction partials launcher) as this build's exercise, with `lesson`
// as its line in `cudalab list`.
#define CUDALAB_REDUCTION_WAY_LAUNCHED(launcher, lesson)                                       \
  namespace cudalab::labs {                                                                    \
  variant make_reduction_exercise_variant() {                                                  \
    return make_partials_variant({"exercise", variant_role::exercise, lesson, launcher, false, \
                                  finish_on::cpu, std::nullopt});                              \
  }                                                                                            \
  }

// The same for a kernel(in, partial, n) launched over the tree's blocks with `shared_floats`
// floats of shared memory a thread.
#define CUDALAB_REDUCTION_WAY(kernel, shared_floats, lesson)                                    \
  CUDALAB_REDUCTION_WAY_LAUNCHED(                                                               \
      [](const float* in, float* partial, std::size_t n, unsigned block, cudaStream_t stream) { \
        return graded_way::launch_over_the_tree_blocks(kernel, in, partial, n, block, stream,   \
                                                       shared_floats);                          \
      },                                                                                        \
      lesson)

// A wrong way's kernel (atomics, shuffles: no shared tree) and a right way's (the exercise's
// tree, a float of shared memory a thread).
#define CUDALAB_REDUCTION_WRONG_WAY(kernel, lesson) CUDALAB_REDUCTION_WAY(kernel, 0, lesson)
#define CUDALAB_REDUCTION_RIGHT_WAY(kernel, lesson) CUDALAB_REDUCTION_WAY(kernel, 1, lesson)
