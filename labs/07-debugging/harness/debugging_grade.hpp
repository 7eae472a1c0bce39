// `cudalab check 07-debugging`: grades the learner's blur by its answer and by what
// compute-sanitizer's memcheck and racecheck report when they run it.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <string>
#include <vector>

namespace cudalab::labs {

// The tools the exercise's two bugs answer to, in the order the report lists them.
inline const std::vector<std::string>& exercise_tools() {
  static const std::vector<std::string> tools{"memcheck", "racecheck"};
  return tools;
}

// PASS needs three lines:
//   1. correct    the blur matches the CPU reference (every element written, none stale);
//   2. memcheck   0 errors running the graded variant once in a child process;
//   3. racecheck  0 errors (hazards) likewise.
// Without compute-sanitizer, lines 2 and 3 say so and FAIL: the grade cannot pass without them.
grade_report grade_debugging(const result_row& exercise, const std::vector<result_row>& references);

}  // namespace cudalab::labs
