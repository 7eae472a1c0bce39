// `cudalab check 06-bank-conflicts`: grades the learner's transpose by its measured counters
// against targets the access model computes for the exercise's size.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <cstddef>
#include <vector>

namespace cudalab::labs {

// The targets at side n, from the model of the padded transpose (the reference): its global
// load and store sectors a request (4 where a warp's 32 floats start on a sector, 5 where they
// straddle one, fewer at the edges), its requests and its conflicts.
struct transpose_targets {
  double ld_sectors_per_request = 0;
  double st_sectors_per_request = 0;
  double requests = 0;          // global load and store requests
  double shared_conflicts = 0;  // loads and stores
};
transpose_targets transpose_grade_targets(std::size_t n);

// PASS needs five lines:
//   1. correct             the output is the exact transpose, nothing written past it;
//   2. ld sectors/request  measured <= the target: loads coalesced;
//   3. st sectors/request  measured <= the target: stores coalesced;
//   4. requests            global load + store requests <= the padded transpose's: a warp
//                          moves its 32 elements in one request, not one lane at a time (which
//                          would make every request a single sector and pass lines 2 and 3);
//   5. shared conflicts    measured ld + st bank conflicts (SASS-level, exact) <= the padded
//                          transpose's predicted conflicts: none.
grade_report grade_transpose(const result_row& exercise, const std::vector<result_row>& references);

}  // namespace cudalab::labs
