// Lab 06 variant factories: the prepared-variant plumbing (padded buffers, poison, download,
// verify) shared by lab.cpp, exercise.cu and solution.cu, so a variant is one spec with its
// launcher.
#pragma once

#include "transpose_data.hpp"
#include "transpose_model.hpp"

#include "transpose/transpose_kernels.cuh"

#include "cudalab/lab.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudalab::labs {

// The sweep of the shared_stride variant: the word stride between a warp's lanes.
inline constexpr const char* stride_sweep = "stride";

using stride_launcher = transpose::launch_dims (*)(const float* in, float* out, std::size_t rows,
                                                   std::size_t cols, unsigned stride,
                                                   cudaStream_t stream);

// One variant: its name and role, and exactly one launcher.
struct transpose_spec : variant_identity {
  transpose::float_launcher float_launch = nullptr;
  transpose::double_launcher double_launch = nullptr;
  stride_launcher stride_launch = nullptr;  // a sweep over stride_sweep
  transpose_data::result_shape result = transpose_data::result_shape::transpose;
  std::optional<transpose_model::kernel> model;  // empty: no prediction (the exercise)

  unsigned element_bytes() const { return double_launch ? 8u : 4u; }
  // A spec with its name, role and lesson; the launcher and the rest are set after.
  static transpose_spec named(std::string name, variant_role role, std::string lesson) {
    transpose_spec s;
    static_cast<variant_identity&>(s) = {std::move(name), role, std::move(lesson)};
    return s;
  }
};

// The lab's variants, kernels in kernels/transpose/; the exercise is not among them.
const std::vector<transpose_spec>& transpose_specs();

// The variant of a spec; the lab's size n is the side of an n x n matrix.
variant make_transpose_variant(const transpose_spec& spec);

// A prepared spec on a rows x cols input, for the tests (the lab's runs are square).
std::unique_ptr<prepared_variant> prepare_matrix(const transpose_spec& spec, std::size_t rows,
                                                 std::size_t cols, unsigned stride = 1);

// Ideal work of every variant: read each element once, write it once.
work_counts transpose_ideal(std::size_t rows, std::size_t cols, unsigned element_bytes);

// The learner's kernel (exercise.cu) or the reference solution (solution.cu): whichever the
// binary links. A float transpose named "exercise".
transpose_spec transpose_exercise_spec();

}  // namespace cudalab::labs
