// A lab's tests/check_test.cpp, built twice (cmake/cudalab_helpers.cmake): against the solution,
// whose grade must PASS every line, and against the untouched exercise, which must FAIL exactly
// on the lines the lesson is about. Each build registers a differently named test, so CTest
// sees two distinct names. Include only from that test source.
#pragma once

#include "cudalab/testing/grader_tests.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#ifndef CUDALAB_EXPECT_CHECK_PASS
#error "CUDALAB_EXPECT_CHECK_PASS must be 0 (exercise build) or 1 (solution build)"
#endif

// CUDALAB_CHECK_TESTS(suite, make_lab, lines, exercise_case, failing lines...): the report has
// `lines` lines; `suite`.solution_passes_every_line in the solution build, and in the exercise
// build `suite`.`exercise_case`, failing on the lines numbered (0 is the correctness line).
#if CUDALAB_EXPECT_CHECK_PASS
#define CUDALAB_CHECK_TESTS(suite, make_lab, lines, exercise_case, ...) \
  class suite : public ::cudalab::testing::counter_test {};             \
  TEST_F(suite, solution_passes_every_line) {                           \
    ::cudalab::testing::expect_solution_passes(                         \
        ::cudalab::testing::grade_built_exercise(make_lab(), lines));   \
  }
#else
#define CUDALAB_CHECK_TESTS(suite, make_lab, lines, exercise_case, ...)              \
  class suite : public ::cudalab::testing::counter_test {};                          \
  TEST_F(suite, exercise_case) {                                                     \
    ::cudalab::testing::expect_exercise_fails_only_on(                               \
        ::cudalab::testing::grade_built_exercise(make_lab(), lines), {__VA_ARGS__}); \
  }
#endif
