// Grading the learner's exercise: run it beside the lab's fixed variants with counters, then
// apply the lab's grade function. Shared by `cudalab check` and the grader's tests.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/result_row.hpp"

#include <string>
#include <vector>

namespace cudalab {

struct grade_outcome {
  grade_report report;
  result_row exercise;
  std::vector<result_row> references;
};

// Throws counters_unavailable-derived errors as cudalab::error with the reason and fix:
// grading needs counters.
grade_outcome grade_exercise(const lab& l, int device);

// Grades `candidate`, one of the lab's variants, exactly as `cudalab check` grades the
// exercise: at the exercise's size, beside the same references, with the same counters. The
// grader's tests use it to show that the grader passes every fixed variant and fails every
// naive one.
grade_outcome grade_as_exercise(const lab& l, const variant& candidate, int device);

// The variants the grader's tests grade as the exercise (exercise_spec::graded_variants, or
// every fixed, naive and buggy variant); throws cudalab::error naming one that is missing.
std::vector<const variant*> graded_variants(const lab& l);

// The end of every grader line: "  ok" or "  FAIL" (learners and the tests read lines by it).
std::string grade_verdict(bool ok);

// When `ex` has no counters (and no trace standing in for them): adds the line that says why,
// sets the hint that tells how to enable them, and returns true, since the traffic lines
// cannot be graded.
bool report_missing_counters(const result_row& ex, grade_report& g);

}  // namespace cudalab
