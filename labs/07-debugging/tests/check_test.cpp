// `cudalab check 07-debugging` on the GPU, built twice (cmake/cudalab_helpers.cmake): against the
// untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: memcheck and racecheck must FAIL it, with a
// hint) and against the reference solution (1: it must PASS every line). The grader runs
// compute-sanitizer on the runner linked with the same exercise (labs/07-debugging/CMakeLists.txt).
#include "debugging_lab.hpp"
#include "sanitizer_run.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/grader_tests.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#ifndef CUDALAB_EXPECT_CHECK_PASS
#error "CUDALAB_EXPECT_CHECK_PASS must be 0 (exercise build) or 1 (solution build)"
#endif
#ifndef CUDALAB_LAB07_RUNNER
#error "compile with CUDALAB_LAB07_RUNNER=<the runner linked with this build's exercise>"
#endif

namespace cudalab::labs {
namespace {

using testing::describe;

class debugging_check : public testing::gpu_test {
 protected:
  void SetUp() override {
    gpu_test::SetUp();
    if (IsSkipped()) return;
    if (find_compute_sanitizer().empty())
      GTEST_SKIP() << "compute-sanitizer not found: " << how_to_get_compute_sanitizer();
    ::setenv("CUDALAB_CHECK_RUNNER", CUDALAB_LAB07_RUNNER, 1);
  }
};

grade_outcome grade_this_build() {
  grade_outcome o = grade_exercise(make_lab_07_debugging(), 0);
  std::cout << describe(o) << "\n";
  EXPECT_EQ(o.exercise.variant_name, "exercise");
  EXPECT_EQ(o.report.lines.size(), 3u) << describe(o);
  return o;
}

#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(debugging_check, solution_passes_every_line) {
  testing::expect_solution_passes(grade_this_build());
}
#else
TEST_F(debugging_check, untouched_exercise_fails_memcheck_and_racecheck_with_a_hint) {
  const grade_outcome o = grade_this_build();
  EXPECT_FALSE(o.report.passed) << describe(o);
  ASSERT_EQ(o.report.lines.size(), 3u);
  EXPECT_EQ(o.report.lines[1].rfind("memcheck: ", 0), 0u) << describe(o);
  EXPECT_NE(o.report.lines[1].find("Invalid __global__ write"), std::string::npos) << describe(o);
  EXPECT_NE(o.report.lines[1].find("FAIL"), std::string::npos) << describe(o);
  EXPECT_EQ(o.report.lines[2].rfind("racecheck: ", 0), 0u) << describe(o);
  EXPECT_NE(o.report.lines[2].find("FAIL"), std::string::npos) << describe(o);
  EXPECT_FALSE(o.report.hint.empty());
}
#endif

}  // namespace
}  // namespace cudalab::labs
