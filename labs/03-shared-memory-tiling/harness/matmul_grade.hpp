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

// The targets at side n: the tiled kernel's (T = fixed_tile) global load sectors, the store
// sectors of writing each output once, and its shared-memory bank conflicts, from the model.
struct matmul_targets {
  std::uint64_t ld_sectors = 0;
  std::uint64_t st_sectors = 0;
  std::uint64_t shared_conflicts = 0;  // loads and stores
};
matmul_targets matmul_grade_targets(std::size_t n);

// PASS needs four lines:
//   1. correct          C matches the double reference within the FP32 tolerance, and
//                       nothing is written past it;
//   2. ld sectors       measured global load sectors <= the tiled target;
//   3. st sectors       measured global store sectors <= one store an output;
//   4. shared conflicts measured ld + st bank conflicts (SASS-level, exact) <= the tiled
//                       kernel's predicted conflicts.
grade_report grade_matmul(const result_row& exercise, const std::vector<result_row>& references);

}  // namespace cudalab::labs
