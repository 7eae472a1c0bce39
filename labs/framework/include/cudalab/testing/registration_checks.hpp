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

// The names of the variants expected in one role.
struct variants_in_role {
  variant_role role;
  std::vector<const char*> names;
};

// `l` registers exactly the variants named in `expected`, each with the role it is listed under.
inline void expect_variant_roles(const lab& l, const std::vector<variants_in_role>& expected) {
  std::size_t named = 0;
  for (const variants_in_role& group : expected) named += group.names.size();
  ASSERT_EQ(l.variants.size(), named);
  for (const variants_in_role& group : expected)
    for (const char* name : group.names) {
      const variant* v = l.find(name);
      ASSERT_NE(v, nullptr) << name;
      EXPECT_EQ(v->role, group.role) << name;
    }
}

// The names of the variants the grader's tests grade as the exercise (grade.hpp).
inline std::vector<std::string> graded_variant_names(const lab& l) {
  std::vector<std::string> names;
  for (const variant* v : graded_variants(l)) names.push_back(v->name);
  return names;
}

}  // namespace cudalab::testing
