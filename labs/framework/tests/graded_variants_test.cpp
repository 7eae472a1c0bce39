// Which variants the grader's tests grade as the exercise: a lab's declared list, or every
// fixed, naive and buggy variant (never baselines or the exercise itself).
#include "cudalab/grade.hpp"

#include "cudalab/check.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace cudalab {
namespace {

lab lab_with_every_role() {
  lab l;
  l.id = "99-test";
  const std::vector<std::pair<std::string, variant_role>> roles = {
      {"slow", variant_role::naive},
      {"racy", variant_role::buggy},
      {"fast", variant_role::fixed},
      {"library", variant_role::baseline},
      {"exercise", variant_role::exercise}};
  for (const auto& [name, role] : roles) {
    variant v;
    v.name = name;
    v.role = role;
    l.variants.push_back(v);
  }
  l.exercise = exercise_spec{};
  l.exercise->variant = "exercise";
  return l;
}

std::vector<std::string> names(const std::vector<const variant*>& vs) {
  std::vector<std::string> out;
  for (const variant* v : vs) out.push_back(v->name);
  return out;
}

TEST(graded_variants, by_default_every_fixed_naive_and_buggy_variant) {
  const lab l = lab_with_every_role();
  EXPECT_EQ(names(graded_variants(l)), (std::vector<std::string>{"slow", "racy", "fast"}));
}

TEST(graded_variants, a_declared_list_is_taken_as_given) {
  lab l = lab_with_every_role();
  l.exercise->graded_variants = {"fast", "slow"};
  EXPECT_EQ(names(graded_variants(l)), (std::vector<std::string>{"fast", "slow"}));
}

TEST(graded_variants, a_declared_name_that_is_not_registered_is_an_error) {
  lab l = lab_with_every_role();
  l.exercise->graded_variants = {"fast", "fastest"};
  try {
    graded_variants(l);
    FAIL() << "an unknown variant was accepted";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("'fastest'"), std::string::npos) << e.what();
  }
}

TEST(graded_variants, a_lab_without_an_exercise_has_none) {
  lab l = lab_with_every_role();
  l.exercise.reset();
  EXPECT_TRUE(graded_variants(l).empty());
}

}  // namespace
}  // namespace cudalab
