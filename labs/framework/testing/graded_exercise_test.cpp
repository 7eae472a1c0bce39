// The GPU tests of a lab's grader, generated from its exercise_spec (lab.hpp) by
// cudalab_add_lab (cmake/cudalab_helpers.cmake): this one source is compiled once for each build
// of the exercise, with CUDALAB_MAKE_LAB naming the lab's factory (make_lab_06_bank_conflicts)
// and one of these saying what the exercise variant of this binary is:
//   CUDALAB_GRADES_UNTOUCHED        labs/NN/exercise.cu: FAILS exactly on the keys of
//                                   exercise_spec::untouched_fails_on, with a hint;
//   CUDALAB_GRADES_SOLUTION         labs/NN/solution.cu: PASSES every line;
//   CUDALAB_GRADES_WRONG_WAY=<way>  tests/wrong/<way>.cu: the right answer, and FAILS on the key
//                                   exercise_spec::wrong_ways gives it, with a hint;
//   CUDALAB_GRADES_RIGHT_WAY=<way>  tests/right/<way>.cu: PASSES every line;
//   CUDALAB_GRADES_VARIANTS         the lab's fixed variants graded as the exercise PASS, its
//                                   naive and buggy ones FAIL, one test a variant.
// CUDALAB_CHECK_RUNNER, where given, is the program the grade runs variants in (lab 07's
// sanitizer runs). Lines are found by key, never by position or wording.
#include "cudalab/testing/grader_tests.hpp"
#include "linked_lab.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#define CUDALAB_TEXT_OF(x) CUDALAB_TEXT_OF_EXPANDED(x)
#define CUDALAB_TEXT_OF_EXPANDED(x) #x

#if defined(CUDALAB_GRADES_WRONG_WAY)
#define CUDALAB_GRADED_WAY CUDALAB_GRADES_WRONG_WAY
#elif defined(CUDALAB_GRADES_RIGHT_WAY)
#define CUDALAB_GRADED_WAY CUDALAB_GRADES_RIGHT_WAY
#endif

namespace cudalab::testing {
namespace {

// A grade that reads counters needs them; one that judges by other means (lab 07 runs
// compute-sanitizer in a child) needs the GPU alone. The suites name the build: labNN.check,
// labNN.wrong_way, labNN.right_way, labNN.grader/...
class graded : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef CUDALAB_CHECK_RUNNER
    ::setenv("CUDALAB_CHECK_RUNNER", CUDALAB_CHECK_RUNNER, 1);
#endif
    const std::string why = the_lab().exercise && !the_lab().exercise->needs_counters
                                ? why_no_device()
                                : why_no_counters();
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

// Grades the exercise this binary links and prints the report for the GPU run's log.
[[maybe_unused]] grade_outcome grade_linked_exercise() {
  grade_outcome o = grade_exercise(the_lab(), 0);
  std::cout << "cudalab check " << the_lab().id << ": " << describe(o) << "\n";
  EXPECT_EQ(o.exercise.variant_name, "exercise");
  return o;
}

[[maybe_unused]] const grade_line* line_with_key(const grade_outcome& o, const std::string& key) {
  const grade_line* line = o.report.find(key);
  EXPECT_NE(line, nullptr) << "no line with key '" << key << "'\n" << describe(o);
  return line;
}

// The lines that judge the answer, which a racing kernel may get right or wrong.
[[maybe_unused]] bool is_an_answer_line(const grade_line& line) {
  return line.key == "correct" || line.key == "inventoried_launch_correct" ||
         line.key == "sanitized_answers";
}

#ifdef CUDALAB_GRADED_WAY
const graded_way& linked_way(const std::vector<graded_way>& ways) {
  const std::string name = CUDALAB_TEXT_OF(CUDALAB_GRADED_WAY);
  const auto found =
      std::find_if(ways.begin(), ways.end(), [&](const graded_way& w) { return w.name == name; });
  if (found == ways.end()) {
    ADD_FAILURE() << the_lab().id << ": " << name << " is built but not in its exercise_spec";
    static const graded_way none;
    return none;
  }
  return *found;
}
#endif

#if defined(CUDALAB_GRADES_UNTOUCHED)
class check : public graded {};
TEST_F(check, untouched_exercise_fails_on_the_lesson_and_nothing_else) {
  const grade_outcome o = grade_linked_exercise();
  const exercise_spec& spec = *the_lab().exercise;
  const std::vector<std::string>& fails_on = spec.untouched_fails_on;
  ASSERT_FALSE(fails_on.empty()) << "exercise_spec::untouched_fails_on names no line";
  if (!spec.untouched_races) {
    EXPECT_TRUE(o.exercise.verification.ok)
        << "the untouched exercise computes the right answer: " << o.exercise.verification.detail;
  }
  EXPECT_FALSE(o.report.passed()) << describe(o);
  EXPECT_FALSE(o.report.hint().empty()) << describe(o);
  for (const std::string& key : fails_on) {
    if (const grade_line* line = line_with_key(o, key)) {
      EXPECT_FALSE(line->ok) << "[" << key << "] " << line->text;
    }
  }
  for (const grade_line& line : o.report.lines) {
    if (std::find(fails_on.begin(), fails_on.end(), line.key) == fails_on.end() &&
        !(spec.untouched_races && is_an_answer_line(line))) {
      EXPECT_TRUE(line.ok) << "only the lesson's lines fail: [" << line.key << "] " << line.text;
    }
  }
}
#elif defined(CUDALAB_GRADES_SOLUTION)
class check : public graded {};
TEST_F(check, solution_passes_every_line) {
  const grade_outcome o = grade_linked_exercise();
  expect_every_line_passes(o, "exercise");
}
#elif defined(CUDALAB_GRADES_WRONG_WAY)
class wrong_way : public graded {};
TEST_F(wrong_way, CUDALAB_GRADED_WAY) {
  const graded_way& way = linked_way(the_lab().exercise->wrong_ways);
  ASSERT_FALSE(way.fails_on.empty()) << way.name << ": a wrong way names the line it fails";
  const grade_outcome o = grade_linked_exercise();
  // A way caught on its answer (one replayed from an earlier launch) is held to nothing more.
  if (!way.races && way.fails_on != "correct") {
    EXPECT_TRUE(o.exercise.verification.ok)
        << way.name << " gets the right answer: " << o.exercise.verification.detail;
  }
  EXPECT_FALSE(o.report.passed()) << way.name << " passed the grader\n" << describe(o);
  if (const grade_line* line = line_with_key(o, way.fails_on)) {
    EXPECT_FALSE(line->ok) << way.name << " (" << way.why << "): [" << line->key << "] "
                           << line->text;
  }
  EXPECT_FALSE(o.report.hint().empty()) << describe(o);
}
#elif defined(CUDALAB_GRADES_RIGHT_WAY)
class right_way : public graded {};
TEST_F(right_way, CUDALAB_GRADED_WAY) {
  const graded_way& way = linked_way(the_lab().exercise->right_ways);
  const grade_outcome o = grade_linked_exercise();
  EXPECT_TRUE(o.exercise.verification.ok) << o.exercise.verification.detail;
  expect_every_line_passes(o, "exercise");
  EXPECT_TRUE(way.fails_on.empty()) << way.name << " is a right way: it fails no line";
}
#elif defined(CUDALAB_GRADES_VARIANTS)
// One test a graded variant, named after it, so that a misgraded variant names itself.
class graded_variant : public graded, public ::testing::WithParamInterface<std::string> {};
class fixed_variant : public graded_variant {};
class naive_variant : public graded_variant {};
TEST_P(fixed_variant, passes_as_the_exercise) {
  expect_every_line_passes(grade_variant(the_lab(), GetParam()), GetParam());
}
TEST_P(naive_variant, fails_as_the_exercise) {
  expect_a_fail_with_a_hint(grade_variant(the_lab(), GetParam()), GetParam());
}
// gtest evaluates the lists when it registers the tests, inside main, not at static start.
INSTANTIATE_TEST_SUITE_P(grader, fixed_variant,
                         ::testing::ValuesIn(graded_variant_names(the_lab(), true)), param_name);
INSTANTIATE_TEST_SUITE_P(grader, naive_variant,
                         ::testing::ValuesIn(graded_variant_names(the_lab(), false)), param_name);
#else
#error "define one of CUDALAB_GRADES_UNTOUCHED, _SOLUTION, _WRONG_WAY, _RIGHT_WAY, _VARIANTS"
#endif

}  // namespace
}  // namespace cudalab::testing
