// Lab 03's grader against the lab's own variants on the GPU: each fixed variant, graded as if
// it were the exercise (same size, references and counters as `cudalab check 03`), must PASS
// every line; each naive or buggy one must FAIL. One test a variant, named after it, so a misgraded
// variant names itself: lab03/matmul_grader_on_fixed.passes_it_as_the_exercise/tiled.
#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::labs {
lab make_lab_03_shared_memory_tiling();
}

namespace {

using cudalab::variant_role;

std::vector<std::string> graded_names(bool fixed) {
  std::vector<std::string> names;
  const cudalab::lab l =
      cudalab::labs::make_lab_03_shared_memory_tiling();  // outlives the pointers into it
  for (const cudalab::variant* v : cudalab::graded_variants(l))
    if ((v->role == variant_role::fixed) == fixed) names.push_back(v->name);
  return names;
}

std::string describe(const cudalab::grade_outcome& o) {
  std::string s = o.report.passed ? "PASS\n" : "FAIL\n";
  for (const auto& line : o.report.lines) s += "  " + line + "\n";
  return s + "hint: " + o.report.hint;
}

class matmul_grader : public cudalab::testing::counter_test,
                      public ::testing::WithParamInterface<std::string> {
 protected:
  cudalab::grade_outcome grade_variant() {
    const cudalab::lab l = cudalab::labs::make_lab_03_shared_memory_tiling();
    const cudalab::variant* v = l.find(GetParam());
    if (!v) throw std::logic_error("no variant " + GetParam());
    cudalab::grade_outcome o = cudalab::grade_as_exercise(l, *v, 0);
    // Every grade is printed, pass or fail, for the GPU run's log.
    std::cout << GetParam() << " graded as the exercise: " << describe(o) << "\n";
    return o;
  }
};
class matmul_grader_on_fixed : public matmul_grader {};
class matmul_grader_on_naive : public matmul_grader {};

TEST_P(matmul_grader_on_fixed, passes_it_as_the_exercise) {
  const cudalab::grade_outcome o = grade_variant();
  EXPECT_EQ(o.exercise.variant_name, GetParam());
  EXPECT_TRUE(o.report.passed) << GetParam() << " is fixed but graded\n" << describe(o);
  for (const auto& line : o.report.lines)
    EXPECT_EQ(line.substr(line.size() - 4), "  ok") << GetParam() << ": " << line;
}

TEST_P(matmul_grader_on_naive, fails_it_as_the_exercise) {
  const cudalab::grade_outcome o = grade_variant();
  // naive and tiled_store_in_loop compute the right product and fail on traffic; the
  // unguarded tile is wrong at the exercise's side, which 16 does not divide.
  EXPECT_EQ(o.exercise.verification.ok, GetParam() != "tiled_unguarded")
      << o.exercise.verification.detail;
  EXPECT_FALSE(o.report.passed) << GetParam() << " is naive but graded\n" << describe(o);
  EXPECT_FALSE(o.report.hint.empty()) << describe(o);
}

std::string by_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

// gtest evaluates these lists when it registers the tests (inside main), not at static start.
INSTANTIATE_TEST_SUITE_P(lab03, matmul_grader_on_fixed, ::testing::ValuesIn(graded_names(true)),
                         by_name);
INSTANTIATE_TEST_SUITE_P(lab03, matmul_grader_on_naive, ::testing::ValuesIn(graded_names(false)),
                         by_name);

}  // namespace
