// Lab 08 variant factories: the register-tiled kernels on the matrix-product labs' shared
// buffers (labs/shared/matmul), pad_to_64 with and without its copies, and the exercise.
#pragma once

#include "regtile_model.hpp"

#include "matmul/matmul_kernels.cuh"
#include "matmul_product.hpp"

#include "cudalab/lab.hpp"

#include <optional>
#include <string>

namespace cudalab::labs {

// warp_tiled's and cp_async_pipeline's sweep: the configuration
// (kernels/matmul/register_tiling_kernels.cuh).
inline constexpr const char* config_sweep = "config";
sweep_spec warp_tiled_config_sweep();

// A kernel of lab 08: its parameter is the value of its sweep (0 for a kernel without one).
using regtile_launcher = matmul_kernel_launcher;

struct regtile_spec : variant_identity {
  regtile_launcher launch = nullptr;
  std::optional<regtile_model::kernel> model;  // empty: no prediction (the exercise)
  bool config_sweep = false;                   // warp_tiled, cp_async_pipeline: --sweep config=
  std::function<std::vector<kernel_resources>(const launch_config&)> resources = {};
  // cp_async_tuned: the configuration is chosen from the side (no sweep).
  unsigned (*config_for_side)(std::size_t n) = nullptr;
};

variant make_regtile_variant(regtile_spec spec);
// pad_to_64: the padded product alone (with_copies false: the copies run untimed in reset and
// download) or with its padding copies in the timed launch.
variant make_pad_to_64_variant(bool with_copies);
// The learner's kernel (exercise.cu) or the reference solution (solution.cu).
variant make_regtile_exercise_variant();

}  // namespace cudalab::labs
