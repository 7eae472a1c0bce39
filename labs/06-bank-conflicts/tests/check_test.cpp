// `cudalab check 06-bank-conflicts` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the plain tile must FAIL on
// shared conflicts, with a hint) and against the reference solution (1: it must PASS every line).
#include "transpose_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/grader_tests.hpp"

#include <gtest/gtest.h>

#include <string>

#ifndef CUDALAB_EXPECT_CHECK_PASS
#error "CUDALAB_EXPECT_CHECK_PASS must be 0 (exercise build) or 1 (solution build)"
#endif

namespace cudalab::labs {
namespace {

using testing::counter_test;
using testing::describe;

class transpose_check : public counter_test {};

// Grades the exercise of this build: both builds transpose correctly and coalesce both sides;
// only the banks differ.
grade_outcome grade_this_build() {
  const lab l = make_lab_06_bank_conflicts();
  grade_outcome o = grade_exercise(l, 0);
  EXPECT_EQ(o.exercise.variant_name, "exercise");
  EXPECT_TRUE(o.exercise.verification.ok) << o.exercise.verification.detail;
  EXPECT_EQ(o.report.lines.size(), 4u) << describe(o);
  return o;
}

#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(transpose_check, solution_passes_every_line) {
  const grade_outcome o = grade_this_build();
  EXPECT_TRUE(o.report.passed) << describe(o);
  for (const auto& line : o.report.lines) EXPECT_NE(line.find("  ok"), std::string::npos) << line;
}
#else
TEST_F(transpose_check, untouched_exercise_fails_on_shared_conflicts_with_a_hint) {
  const grade_outcome o = grade_this_build();
  EXPECT_FALSE(o.report.passed) << describe(o);
  ASSERT_EQ(o.report.lines.size(), 4u);
  EXPECT_NE(o.report.lines[0].find("  ok"), std::string::npos) << describe(o);
  EXPECT_NE(o.report.lines[1].find("  ok"), std::string::npos) << describe(o);
  EXPECT_NE(o.report.lines[2].find("  ok"), std::string::npos) << describe(o);
  EXPECT_EQ(o.report.lines[3].rfind("shared conflicts", 0), 0u) << describe(o);
  EXPECT_NE(o.report.lines[3].find("FAIL"), std::string::npos) << describe(o);
  EXPECT_FALSE(o.report.hint.empty());
}
#endif

}  // namespace
}  // namespace cudalab::labs
