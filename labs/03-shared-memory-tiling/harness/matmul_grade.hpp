// `cudalab check 03-shared-memory-tiling`: grades the learner's product by its measured
// counters against targets the access model computes for the exercise's size.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cudalab::labs {

// The targets at side n: the tiled kernel's (T = fixed_tile) global load sectors and the
// store sectors of writing each output once, from the model.
struct matmul_targets {
  std::uint64_t ld_sectors = 0;
  std::uint64_t st_sectors = 0;
};
matmul_targets matmul_grade_targets(std::size_t n);

// PASS needs four lines:
//   1. correct          C matches the double reference within the FP32 tolerance, and
//                       nothing is written past it;
//   2. ld sectors       measured global load sectors <= the tiled target;
//   3. st sectors       measured global store sectors <= one store an output;
//   4. shared conflicts measured ld + st bank conflicts <= shared_band_fraction of the
//                       measured wavefronts (a conflict-free kernel; 2 more for tiny counts).
grade_report grade_matmul(const result_row& exercise, const std::vector<result_row>& references);

}  // namespace cudalab::labs
