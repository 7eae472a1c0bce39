// What the GPU tests of a grader share (labs/framework/testing/graded_exercise_test.cpp, generated
// for every lab with an exercise): each `fixed` variant, graded as if it were the exercise (the
// size, references and counters of `cudalab check`), must PASS every line; each other graded
// variant (naive, buggy) must FAIL with a hint. Whether a failing variant computes the right
// answer is its own variants' tests' business; here only the grade is checked. Include only
// from test sources (it needs GoogleTest).
#pragma once

#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/testing/grade_checks.hpp"

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

inline std::string describe(const grade_outcome& o) { return describe(o.report); }

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
  EXPECT_TRUE(o.report.passed()) << name << " is fixed but graded\n" << describe(o);
  for (const grade_line& line : o.report.lines)
    EXPECT_TRUE(line.ok) << name << ": [" << line.key << "] " << line.text;
}

inline void expect_a_fail_with_a_hint(const grade_outcome& o, const std::string& name) {
  EXPECT_FALSE(o.report.passed()) << name << " is not fixed but graded\n" << describe(o);
  EXPECT_FALSE(o.report.hint().empty()) << describe(o);
}

inline std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

}  // namespace cudalab::testing
