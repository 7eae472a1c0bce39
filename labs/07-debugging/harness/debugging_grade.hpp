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

// The fixed kernel the exercise's global traffic is held to, run beside it.
inline constexpr const char* debugging_reference_variant = "missing_sync_fixed";

// PASS needs every line:
//   correct            the blur matches the CPU reference (every element written, none stale);
//   ld_sectors,        the global load and store sectors at most the fixed blur's, counted in
//   st_sectors         the same run (a tile in global memory escapes racecheck, not these);
//   canary             no word past out overwritten in a run without the sanitizer;
//   memcheck,          0 errors running the exercise once in a child process under each tool;
//   racecheck
//   sanitized_answers  the blur right in those runs too.
// Without compute-sanitizer, the tools' lines say so and FAIL: the grade cannot pass without
// them. The framework adds the inventory's lines (its kernels alone, no copies).
grade_report grade_debugging(const result_row& exercise, const std::vector<result_row>& references);

}  // namespace cudalab::labs
