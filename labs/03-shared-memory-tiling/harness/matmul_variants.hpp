// Lab 03 variant factories: the prepared-variant plumbing (padded buffers, poison, download,
// verify) shared by lab.cpp, exercise.cu and solution.cu, so a variant is one call with its
// launcher.
#pragma once

#include "matmul_model.hpp"
#include "matmul_product.hpp"

#include "matmul/matmul_kernels.cuh"

#include "cudalab/lab.hpp"

#include <optional>
#include <string>

namespace cudalab::labs {

// The sweep of the tiled variant: the tile T of its T x T blocks.
inline constexpr const char* tile_sweep = "tile";
// The tile of the two buggy tiled variants and of the exercise's target.
inline constexpr unsigned fixed_tile = 16;

// A kernel that computes C = A B for side n: its parameter is the block's threads (naive) or
// the tile.
using matmul_launcher = matmul_kernel_launcher;

enum class shape_from {
  block,  // --block: the naive kernel's 32 x (t/32) threads
  sweep,  // the tile sweep's value
  fixed,  // fixed_tile
};

struct kernel_spec : variant_identity {
  matmul_launcher launch = nullptr;
  shape_from shape = shape_from::fixed;
  std::optional<matmul_model::kernel> model;  // empty: no prediction (the exercise)
};

// The shape (threads or tile) a variant launches for a config.
unsigned shape_of(shape_from from, const launch_config& c);

variant make_kernel_variant(kernel_spec spec);
// The largest side the CPU baseline runs: about 2 s a run on one core there.
inline constexpr std::size_t cpu_naive_max_side = 2048;
// The naive triple loop on one CPU core, timed with the host clock; omitted above
// cpu_naive_max_side.
variant make_cpu_naive_variant();

// The learner's kernel (exercise.cu) or the reference solution (solution.cu): whichever the
// binary links. Launched with fixed_tile.
variant make_matmul_exercise_variant();

}  // namespace cudalab::labs
