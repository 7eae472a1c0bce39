// A lab's tests/check_test.cpp, built twice (cmake/cudalab_helpers.cmake): against the solution,
// whose grade must PASS every line, and against the untouched exercise, which must FAIL exactly
// on the lines the lesson is about. Each build registers a differently named test, so CTest
// sees two distinct names. Include only from that test source.
#pragma once

#include "cudalab/testing/grader_tests.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

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

namespace cudalab::testing {

// What the untouched exercise's report must say on one line: it starts with `starts_with` (any
// start where empty) and holds each of `contains`.
struct line_expectation {
  std::size_t line;
  std::string starts_with;
  std::vector<std::string> contains;
};

// The exercise build of a lab whose failure is told by the words of its lines, not only by which
// lines fail: FAIL, `lines` lines, each expectation met, and a hint.
inline void expect_exercise_fails_with_a_hint(const grade_outcome& o, std::size_t lines,
                                              const std::vector<line_expectation>& expected) {
  EXPECT_FALSE(o.report.passed) << describe(o);
  ASSERT_EQ(o.report.lines.size(), lines);
  for (const line_expectation& e : expected) {
    const std::string& line = o.report.lines[e.line];
    if (!e.starts_with.empty()) {
      EXPECT_EQ(line.rfind(e.starts_with, 0), 0u) << describe(o);
    }
    for (const std::string& part : e.contains)
      EXPECT_NE(line.find(part), std::string::npos) << describe(o);
  }
  EXPECT_FALSE(o.report.hint.empty());
}

}  // namespace cudalab::testing

// CUDALAB_CHECK_CASES(fixture, grade_this_build, exercise_case, lines, line expectations...): for
// a lab whose check needs its own fixture or grading function. grade_this_build() grades the
// exercise linked; the solution build must pass every line, and the exercise build, in test
// `exercise_case`, must fail as expect_exercise_fails_with_a_hint reads the expectations.
#if CUDALAB_EXPECT_CHECK_PASS
#define CUDALAB_CHECK_CASES(fixture, grade_this_build, exercise_case, lines, ...) \
  TEST_F(fixture, solution_passes_every_line) {                                   \
    ::cudalab::testing::expect_solution_passes(grade_this_build());               \
  }
#else
#define CUDALAB_CHECK_CASES(fixture, grade_this_build, exercise_case, lines, ...)    \
  TEST_F(fixture, exercise_case) {                                                   \
    ::cudalab::testing::expect_exercise_fails_with_a_hint(grade_this_build(), lines, \
                                                          {__VA_ARGS__});            \
  }
#endif
