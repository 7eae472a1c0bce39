// `cudalab check 07-debugging` on the GPU, built twice (cmake/cudalab_helpers.cmake): against the
// untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: memcheck and racecheck must FAIL it, with a
// hint) and against the reference solution (1: it must PASS every line). The grader runs
// compute-sanitizer on the runner linked with the same exercise (labs/07-debugging/CMakeLists.txt).
#include "debugging_lab.hpp"
#include "sanitizer_run.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/check_test.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
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
  EXPECT_EQ(o.report.lines.size(), 5u) << describe(o);
  return o;
}

CUDALAB_CHECK_CASES(debugging_check, grade_this_build,
                    untouched_exercise_fails_memcheck_and_racecheck_with_a_hint, 5,
                    {1, "memcheck: ", {"Invalid __global__ write", "FAIL"}},
                    {2, "racecheck: ", {"FAIL"}})

}  // namespace
}  // namespace cudalab::labs
