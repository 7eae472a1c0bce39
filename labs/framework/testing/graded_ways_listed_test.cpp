// The CPU half of the generated grader tests (cmake/cudalab_graded_tests.cmake): the ways a lab
// builds (tests/wrong/*.cu, tests/right/*.cu, named in CUDALAB_BUILT_WRONG_WAYS and
// CUDALAB_BUILT_RIGHT_WAYS, comma-separated) are exactly the ways its exercise_spec lists, each
// wrong way names the line it must fail, and the untouched exercise names the lines the lesson
// is about. A way added without its expectation, or listed without its file, fails here, in CI,
// not first on the GPU.
#include "linked_lab.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#if !defined(CUDALAB_BUILT_WRONG_WAYS) || !defined(CUDALAB_BUILT_RIGHT_WAYS)
#error "compile with CUDALAB_BUILT_WRONG_WAYS and CUDALAB_BUILT_RIGHT_WAYS"
#endif

namespace cudalab::testing {
namespace {

std::set<std::string> names_in(const std::string& comma_separated) {
  std::set<std::string> names;
  std::stringstream in(comma_separated);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.insert(name);
  return names;
}

std::set<std::string> names_of(const std::vector<graded_way>& ways) {
  std::set<std::string> names;
  for (const graded_way& w : ways) EXPECT_TRUE(names.insert(w.name).second) << w.name << " twice";
  return names;
}

TEST(graded_ways, the_spec_lists_every_built_way_and_no_other) {
  const lab& l = the_lab();
  ASSERT_TRUE(l.exercise.has_value());
  EXPECT_EQ(names_of(l.exercise->wrong_ways), names_in(CUDALAB_BUILT_WRONG_WAYS)) << l.id;
  EXPECT_EQ(names_of(l.exercise->right_ways), names_in(CUDALAB_BUILT_RIGHT_WAYS)) << l.id;
}

TEST(graded_ways, each_wrong_way_names_its_line_and_no_right_way_does) {
  const lab& l = the_lab();
  for (const graded_way& w : l.exercise->wrong_ways) {
    EXPECT_FALSE(w.fails_on.empty()) << w.name;
    EXPECT_FALSE(w.why.empty()) << w.name;
  }
  for (const graded_way& w : l.exercise->right_ways) {
    EXPECT_TRUE(w.fails_on.empty()) << w.name;
    EXPECT_FALSE(w.why.empty()) << w.name;
  }
}

TEST(graded_ways, the_untouched_exercise_fails_on_named_lines) {
  const lab& l = the_lab();
  const std::vector<std::string>& keys = l.exercise->untouched_fails_on;
  EXPECT_FALSE(keys.empty()) << l.id;
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size()) << l.id;
  EXPECT_EQ(std::count(keys.begin(), keys.end(), "correct"), 0)
      << l.id << ": the untouched exercise computes the right answer; the lesson is elsewhere";
}

}  // namespace
}  // namespace cudalab::testing
