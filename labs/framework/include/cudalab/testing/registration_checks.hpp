// What the labs' CPU tests check of a lab's registration: each variant under its name with its
// role, and the variants the grader grades, in order. Include only from test sources (it needs
// GoogleTest).
#pragma once

#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace cudalab::testing {

// `l` registers exactly the variants of `expected`, each with its role.
inline void expect_variant_roles(
    const lab& l, const std::vector<std::pair<const char*, variant_role>>& expected) {
  ASSERT_EQ(l.variants.size(), expected.size());
  for (const auto& [name, role] : expected) {
    const variant* v = l.find(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(v->role, role) << name;
  }
}

// The names of the variants the grader's tests grade as the exercise (grade.hpp).
inline std::vector<std::string> graded_variant_names(const lab& l) {
  std::vector<std::string> names;
  for (const variant* v : graded_variants(l)) names.push_back(v->name);
  return names;
}

}  // namespace cudalab::testing
