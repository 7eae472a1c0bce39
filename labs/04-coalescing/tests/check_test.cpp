// `cudalab check 04-coalescing` on the GPU, built twice (cmake/cudalab_helpers.cmake): against
// the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the naive float3 kernel must FAIL, with
// a hint) and against the reference solution (1: it must PASS every line). Grading runs the
// exercise beside aos_float3_staged, aos_float4 and soa with hardware counters.
#include "coalescing_lab.hpp"

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

class coalescing_check : public counter_test {};

// Grades the exercise of this build and checks what both builds share: the references and the
// exercise compute the right numbers; only the traffic differs.
grade_outcome grade_this_build() {
  grade_outcome o = testing::grade_built_exercise(make_lab_04_coalescing(), 6);
  EXPECT_EQ(o.references.size(), 3u);
  for (const auto& r : o.references)
    EXPECT_TRUE(r.verification.ok) << r.variant_name << ": " << r.verification.detail;
  return o;
}

// Each build registers a differently named test, so CTest sees two distinct names.
#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(coalescing_check, solution_passes_every_line) {
  testing::expect_solution_passes(grade_this_build());
}
#else
TEST_F(coalescing_check, untouched_exercise_fails_on_sectors_with_a_hint) {
  const grade_outcome o = grade_this_build();
  EXPECT_FALSE(o.report.passed) << describe(o);
  ASSERT_EQ(o.report.lines.size(), 6u);
  // The naive kernel is correct: it fails on traffic, 12 sectors a request, and is told why.
  EXPECT_NE(o.report.lines[0].find("  ok"), std::string::npos) << describe(o);
  EXPECT_NE(o.report.lines[1].find("12.00 <= 4.00"), std::string::npos) << describe(o);
  EXPECT_NE(o.report.lines[3].find("FAIL"), std::string::npos) << describe(o);
  EXPECT_FALSE(o.report.hint.empty());
}
#endif

}  // namespace
}  // namespace cudalab::labs
