// `cudalab check 04-coalescing` on the GPU, built twice (cmake/cudalab_helpers.cmake): against
// the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the naive float3 kernel must FAIL, with
// a hint) and against the reference solution (1: it must PASS every line). Grading runs the
// exercise beside aos_float3_staged, aos_float4 and soa with hardware counters.
#include "coalescing_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/check_test.hpp"

#include <gtest/gtest.h>

namespace cudalab::labs {
namespace {

using testing::counter_test;

class coalescing_check : public counter_test {};

// Grades the exercise of this build and checks what both builds share: the references and the
// exercise compute the right numbers; only the traffic differs.
grade_outcome grade_this_build() {
  grade_outcome o = testing::grade_built_exercise(make_lab_04_coalescing(), 9);
  EXPECT_EQ(o.references.size(), 3u);
  for (const auto& r : o.references)
    EXPECT_TRUE(r.verification.ok) << r.variant_name << ": " << r.verification.detail;
  return o;
}

// The naive kernel is correct: it fails on traffic, 12 sectors a request, and is told why.
CUDALAB_CHECK_CASES(coalescing_check, grade_this_build,
                    untouched_exercise_fails_on_sectors_with_a_hint, 9, {0, "", {"  ok"}},
                    {1, "", {"12.00 <= 4.00"}}, {3, "", {"FAIL"}})

}  // namespace
}  // namespace cudalab::labs
