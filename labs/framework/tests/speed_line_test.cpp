// The speed floor of labs 03, 04 and 06 (grade.hpp's add_speed_line): the exercise's median time
// at most a factor of its fixed reference's, both timed in the same run.
#include "cudalab/grade.hpp"
#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab {
namespace {

result_row timed(const std::string& name, double ms) {
  result_row r;
  r.variant_name = name;
  r.measured = true;
  r.time.median_ms = ms;
  return r;
}

grade_report graded(const result_row& exercise, const result_row* reference) {
  grade_report report;
  add_speed_line(report, exercise, reference, 2.0);
  return report;
}

TEST(speed_line, twice_the_references_time_passes_and_more_fails) {
  const result_row padded = timed("padded", 0.0069);
  const grade_report at = graded(timed("exercise", 0.0138), &padded);
  EXPECT_TRUE(at.passed());
  ASSERT_EQ(at.lines.size(), 1u);
  EXPECT_EQ(cudalab::testing::printed(at, "speed"),
            "speed 13.80 us <= 2 x 6.900 us (padded, timed in this run)  ok");
  const grade_report above = graded(timed("exercise", 0.0139), &padded);
  EXPECT_FALSE(above.passed());
  EXPECT_FALSE(cudalab::testing::line_of(above, "speed").ok);
  EXPECT_NE(above.hint().find("2.0x the time of padded"), std::string::npos) << above.hint();
}

TEST(speed_line, a_missing_time_fails_and_says_so) {
  const result_row padded = timed("padded", 0);
  const grade_report g = graded(timed("exercise", 0.01), &padded);
  EXPECT_FALSE(g.passed());
  EXPECT_EQ(cudalab::testing::printed(g, "speed"),
            "speed n/a: the exercise and padded must both be timed  FAIL");
  EXPECT_FALSE(graded(timed("exercise", 0.01), nullptr).passed());
}

TEST(speed_line, timed_under_the_tracer_it_is_not_graded_and_says_so) {
  result_row exercise = timed("exercise", 1.0);
  exercise.counters.from_trace = true;
  const result_row padded = timed("padded", 0.001);
  const grade_report g = graded(exercise, &padded);
  EXPECT_TRUE(g.passed());
  EXPECT_EQ(
      cudalab::testing::printed(g, "speed").rfind("speed n/a: timed under the memory tracer", 0),
      0u)
      << cudalab::testing::printed(g, "speed");
}

}  // namespace
}  // namespace cudalab
