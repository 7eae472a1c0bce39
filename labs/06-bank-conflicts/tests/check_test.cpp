// `cudalab check 06-bank-conflicts` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the plain tile must FAIL on
// shared conflicts, with a hint) and against the reference solution (1: it must PASS every line).
#include "transpose_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/grader_tests.hpp"

#include <gtest/gtest.h>

#ifndef CUDALAB_EXPECT_CHECK_PASS
#error "CUDALAB_EXPECT_CHECK_PASS must be 0 (exercise build) or 1 (solution build)"
#endif

namespace cudalab::labs {
namespace {

class transpose_check : public testing::counter_test {};

// Each build registers a differently named test, so CTest sees two distinct names.
#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(transpose_check, solution_passes_every_line) {
  testing::expect_solution_passes(testing::grade_built_exercise(make_lab_06_bank_conflicts(), 4));
}
#else
TEST_F(transpose_check, untouched_exercise_fails_on_shared_conflicts_with_a_hint) {
  testing::expect_exercise_fails_only_on(
      testing::grade_built_exercise(make_lab_06_bank_conflicts(), 4), {3});
}
#endif

}  // namespace
}  // namespace cudalab::labs
