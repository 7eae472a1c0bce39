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

using testing::describe;

class memory_check : public testing::counter_test {};

// Both builds compute the right sums; only the local traffic differs.
#if CUDALAB_EXPECT_CHECK_PASS
TEST_F(memory_check, solution_passes_every_line) {
  testing::expect_solution_passes(testing::grade_built_exercise(make_lab_02_memory_spaces(), 7));
}
#else
TEST_F(memory_check, untouched_exercise_fails_on_local_sectors_with_a_hint) {
  const grade_outcome o = testing::grade_built_exercise(make_lab_02_memory_spaces(), 7);
  ASSERT_EQ(o.report.lines.size(), 7u);
  testing::expect_exercise_fails_only_on(o, {1, 2});
  EXPECT_EQ(o.report.lines[1].rfind("local st sectors", 0), 0u) << describe(o);
  EXPECT_EQ(o.report.lines[2].rfind("local ld sectors", 0), 0u) << describe(o);
}
#endif

}  // namespace
}  // namespace cudalab::labs
