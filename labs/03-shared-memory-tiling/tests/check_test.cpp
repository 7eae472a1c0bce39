// `cudalab check 03-shared-memory-tiling` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the naive kernel must FAIL on
// load sectors, with a hint) and against the reference solution (1: it must PASS every line).
#include "matmul_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/grader_tests.hpp"

#include <gtest/gtest.h>

#ifndef CUDALAB_EXPECT_CHECK_PASS
#error "CUDALAB_EXPECT_CHECK_PASS must be 0 (exercise build) or 1 (solution build)"
#endif

namespace cudalab::labs {
namespace {

class matmul_check : public testing::counter_test {};

// Each build registers a differently named test, so CTest sees two distinct names.
#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(matmul_check, solution_passes_every_line) {
  testing::expect_solution_passes(
      testing::grade_built_exercise(make_lab_03_shared_memory_tiling(), 4));
}
#else
TEST_F(matmul_check, untouched_exercise_fails_on_load_sectors_with_a_hint) {
  testing::expect_exercise_fails_only_on(
      testing::grade_built_exercise(make_lab_03_shared_memory_tiling(), 4), {1});
}
#endif

}  // namespace
}  // namespace cudalab::labs
