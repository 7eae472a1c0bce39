// The lab 05 checker, built twice: against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS
// 0: the divergent interleaved kernel must FAIL, with a hint) and against the reference
// solution (1: sequential addressing must PASS every criterion).
#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/testing/one_lab_registry.hpp"

#include "gpu_test.hpp"

#include <algorithm>
#include <iostream>

#ifndef CUDALAB_EXPECT_CHECK_PASS
#error "compile with CUDALAB_EXPECT_CHECK_PASS=0 (exercise) or 1 (solution)"
#endif

namespace cudalab::labs {
lab make_lab_05_reduction();
}

// This test binary registers lab 05 alone, built against the exercise.cu or solution.cu it
// links (lab::find and the runner live beside find_lab, which asks for the registry).
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_05_reduction)

namespace {

class reduction_check : public cudalab::testing::counter_test {};

// One name per build, so CTest lists both.
#if CUDALAB_EXPECT_CHECK_PASS
#define CUDALAB_CHECK_CASE solution_passes_every_criterion
#else
#define CUDALAB_CHECK_CASE untouched_exercise_fails_with_a_hint
#endif

TEST_F(reduction_check, CUDALAB_CHECK_CASE) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  const cudalab::grade_outcome o = cudalab::grade_exercise(l, 0);
  for (const auto& line : o.report.lines) std::cout << "  " << line << "\n";
  ASSERT_EQ(o.report.lines.size(), 8u);
  EXPECT_TRUE(o.exercise.verification.ok)
      << o.exercise.verification.detail;  // both kernels are correct
  auto ends_ok = [](const std::string& s) {
    return s.size() >= 4 && s.substr(s.size() - 4) == "  ok";
  };
#if CUDALAB_EXPECT_CHECK_PASS
  EXPECT_TRUE(o.report.passed) << o.report.hint;
  for (const auto& line : o.report.lines) EXPECT_TRUE(ends_ok(line)) << line;
#else
  EXPECT_FALSE(o.report.passed);
  EXPECT_FALSE(o.report.hint.empty());
  // The divergent exercise fails on its divergent branches and on shared wavefronts; it
  // writes once a block, as a tree does.
  auto line_starting = [&](const std::string& start) {
    for (const auto& line : o.report.lines)
      if (line.rfind(start, 0) == 0) return line;
    ADD_FAILURE() << "no line '" << start << "'";
    return std::string();
  };
  EXPECT_FALSE(ends_ok(line_starting("divergent branches")));
  EXPECT_FALSE(ends_ok(line_starting("shared wavefronts")));
  EXPECT_TRUE(ends_ok(line_starting("global writes")));
#endif
}

}  // namespace
