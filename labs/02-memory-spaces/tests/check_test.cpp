// `cudalab check 02-memory-spaces` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the spilling kernel must FAIL on
// local sectors, with a hint) and against the reference solution (1: it must PASS every line).
#include "memory_lab.hpp"

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

class memory_check : public counter_test {};

// Grades the exercise of this build: both builds compute the right sums; only the local traffic
// differs.
grade_outcome grade_this_build() {
  const lab l = make_lab_02_memory_spaces();
  grade_outcome o = grade_exercise(l, 0);
  EXPECT_EQ(o.exercise.variant_name, "exercise");
  EXPECT_TRUE(o.exercise.verification.ok) << o.exercise.verification.detail;
  EXPECT_EQ(o.report.lines.size(), 4u) << describe(o);
  return o;
}

#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(memory_check, solution_passes_every_line) {
  const grade_outcome o = grade_this_build();
  EXPECT_TRUE(o.report.passed) << describe(o);
  for (const auto& line : o.report.lines) EXPECT_NE(line.find("  ok"), std::string::npos) << line;
}
#else
TEST_F(memory_check, untouched_exercise_fails_on_local_sectors_with_a_hint) {
  const grade_outcome o = grade_this_build();
  EXPECT_FALSE(o.report.passed) << describe(o);
  ASSERT_EQ(o.report.lines.size(), 4u);
  EXPECT_NE(o.report.lines[0].find("  ok"), std::string::npos) << describe(o);
  EXPECT_EQ(o.report.lines[1].rfind("local st sectors", 0), 0u) << describe(o);
  EXPECT_NE(o.report.lines[1].find("FAIL"), std::string::npos) << describe(o);
  EXPECT_EQ(o.report.lines[2].rfind("local ld sectors", 0), 0u) << describe(o);
  EXPECT_NE(o.report.lines[2].find("FAIL"), std::string::npos) << describe(o);
  EXPECT_NE(o.report.lines[3].find("  ok"), std::string::npos) << describe(o);
  EXPECT_FALSE(o.report.hint.empty());
}
#endif

}  // namespace
}  // namespace cudalab::labs
