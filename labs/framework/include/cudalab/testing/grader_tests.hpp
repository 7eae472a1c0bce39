// The GPU tests every lab with an exercise gives its grader: each `fixed` variant, graded as if
// it were the exercise (the size, references and counters of `cudalab check`), must PASS every
// line; each other graded variant (naive, buggy) must FAIL with a hint. One test a variant,
// named after it, so a misgraded variant names itself:
//   lab04/coalescing_grader_on_fixed.passes_it_as_the_exercise/aos_float4
// A lab's tests/grader_gpu_test.cpp is one line:
//   CUDALAB_GRADER_TESTS(lab04, coalescing, cudalab::labs::make_lab_04_coalescing)
// Whether a failing variant computes the right answer is its own variants' tests' business;
// here only the grade is checked. Include only from test sources (it needs GoogleTest and the
// gpu_test fixture).
#pragma once

#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::testing {

// The graded variants (grade.hpp's graded_variants) that are fixed, or the others.
inline std::vector<std::string> graded_variant_names(const lab& l, bool fixed) {
  std::vector<std::string> names;
  for (const variant* v : graded_variants(l))
    if ((v->role == variant_role::fixed) == fixed) names.push_back(v->name);
  return names;
}

inline std::string describe(const grade_outcome& o) {
  std::string s = o.report.passed ? "PASS\n" : "FAIL\n";
  for (const auto& line : o.report.lines) s += "  " + line + "\n";
  return s + "hint: " + o.report.hint;
}

// Grades variant `name` of `l` as the exercise and prints every line, pass or fail, for the
// GPU run's log.
inline grade_outcome grade_variant(const lab& l, const std::string& name) {
  const variant* v = l.find(name);
  if (!v) throw std::logic_error("no variant " + name);
  grade_outcome o = grade_as_exercise(l, *v, 0);
  std::cout << name << " graded as the exercise: " << describe(o) << "\n";
  return o;
}

inline void expect_every_line_passes(const grade_outcome& o, const std::string& name) {
  EXPECT_EQ(o.exercise.variant_name, name);
  EXPECT_TRUE(o.report.passed) << name << " is fixed but graded\n" << describe(o);
  for (const auto& line : o.report.lines)
    EXPECT_EQ(line.substr(line.size() - 4), "  ok") << name << ": " << line;
}

inline void expect_a_fail_with_a_hint(const grade_outcome& o, const std::string& name) {
  EXPECT_FALSE(o.report.passed) << name << " is not fixed but graded\n" << describe(o);
  EXPECT_FALSE(o.report.hint.empty()) << describe(o);
}

// A wrong way to the exercise's numbers (tests/wrong/*.cu), linked as this build's exercise:
// it must compute the right answer and still FAIL, on the report line that starts with
// `failing_line` (the one that catches its shortcut), with a hint.
inline void expect_wrong_way_fails(const lab& l, const std::string& way,
                                   const std::string& failing_line) {
  const grade_outcome o = grade_exercise(l, 0);
  for (const auto& line : o.report.lines) std::cout << "  " << line << "\n";
  EXPECT_TRUE(o.exercise.verification.ok)
      << way << " gets the right answer: " << o.exercise.verification.detail;
  EXPECT_FALSE(o.report.passed) << way << " passed the grader";
  bool found = false;
  for (const auto& line : o.report.lines) {
    if (line.rfind(failing_line, 0) != 0) continue;
    found = true;
    EXPECT_EQ(line.substr(line.size() - 6), "  FAIL") << way << ": " << line;
  }
  EXPECT_TRUE(found) << "no line '" << failing_line << "'";
  EXPECT_FALSE(o.report.hint.empty());
}

// tests/check_test.cpp is built twice, against the untouched exercise and against the
// solution. Both compute the right answer and print `lines` criteria; grades the one linked.
inline grade_outcome grade_built_exercise(const lab& l, std::size_t lines) {
  grade_outcome o = grade_exercise(l, 0);
  std::cout << "cudalab check " << l.id << ": " << describe(o) << "\n";
  EXPECT_EQ(o.exercise.variant_name, "exercise");
  EXPECT_TRUE(o.exercise.verification.ok) << o.exercise.verification.detail;
  EXPECT_EQ(o.report.lines.size(), lines) << describe(o);
  return o;
}

// The solution build: PASS, every line ending in "  ok".
inline void expect_solution_passes(const grade_outcome& o) {
  expect_every_line_passes(o, "exercise");
}

// The exercise build: FAIL with a hint, exactly on the lines numbered in `failing` (0 is the
// correctness line); every other line passes, so the test names what the exercise lacks.
inline void expect_exercise_fails_only_on(const grade_outcome& o,
                                          const std::vector<std::size_t>& failing) {
  expect_a_fail_with_a_hint(o, "exercise");
  for (std::size_t i = 0; i < o.report.lines.size(); ++i) {
    const std::string& line = o.report.lines[i];
    const bool should_fail = std::find(failing.begin(), failing.end(), i) != failing.end();
    const std::string end = should_fail ? "  FAIL" : "  ok";
    EXPECT_TRUE(line.size() >= end.size() &&
                line.compare(line.size() - end.size(), end.size(), end) == 0)
        << "line " << i << " should end in '" << end << "': " << line;
  }
}

inline std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

}  // namespace cudalab::testing

// The two suites for one lab: <topic>_grader_on_fixed and <topic>_grader_on_naive, under the
// prefix `lab_prefix` (lab04). gtest evaluates the variant lists when it registers the tests,
// inside main, not at static start.
#define CUDALAB_GRADER_TESTS(lab_prefix, topic, make_lab)                               \
  class topic##_grader : public ::cudalab::testing::counter_test,                       \
                         public ::testing::WithParamInterface<std::string> {};          \
  class topic##_grader_on_fixed : public topic##_grader {};                             \
  class topic##_grader_on_naive : public topic##_grader {};                             \
  TEST_P(topic##_grader_on_fixed, passes_it_as_the_exercise) {                          \
    ::cudalab::testing::expect_every_line_passes(                                       \
        ::cudalab::testing::grade_variant(make_lab(), GetParam()), GetParam());         \
  }                                                                                     \
  TEST_P(topic##_grader_on_naive, fails_it_as_the_exercise) {                           \
    ::cudalab::testing::expect_a_fail_with_a_hint(                                      \
        ::cudalab::testing::grade_variant(make_lab(), GetParam()), GetParam());         \
  }                                                                                     \
  INSTANTIATE_TEST_SUITE_P(                                                             \
      lab_prefix, topic##_grader_on_fixed,                                              \
      ::testing::ValuesIn(::cudalab::testing::graded_variant_names(make_lab(), true)),  \
      ::cudalab::testing::param_name);                                                  \
  INSTANTIATE_TEST_SUITE_P(                                                             \
      lab_prefix, topic##_grader_on_naive,                                              \
      ::testing::ValuesIn(::cudalab::testing::graded_variant_names(make_lab(), false)), \
      ::cudalab::testing::param_name)
