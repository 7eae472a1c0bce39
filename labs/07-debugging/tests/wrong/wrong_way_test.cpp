// `cudalab check 07` on wrong ways of doing the exercise (tests/wrong/*.cu), each built as the
// exercise of its own copy of the lab (cmake/cudalab_wrong_ways.cmake) with CUDALAB_WRONG_WAY
// naming it. Each fixes one of the two bugs; the grader must FAIL it on the tool that sees the
// other.
#include "debugging_lab.hpp"
#include "sanitizer_run.hpp"

#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/testing/grader_tests.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#ifndef CUDALAB_WRONG_WAY
#error "compile with CUDALAB_WRONG_WAY=<name of the tests/wrong/ kernel>"
#endif
#ifndef CUDALAB_LAB07_RUNNER
#error "compile with CUDALAB_LAB07_RUNNER=<the runner linked with this wrong way>"
#endif
#define CUDALAB_NAME_OF(x) CUDALAB_NAME_OF_EXPANDED(x)
#define CUDALAB_NAME_OF_EXPANDED(x) #x

namespace {

// The line of the report (by its first word) that each wrong way must fail.
const std::map<std::string, std::string> failing_line = {
    {"store_unguarded", "memcheck"},            // the tail block's stores past the array
    {"syncwarp_for_syncthreads", "racecheck"},  // the slots across warps
    {"host_blur", "copies and memsets"},        // the host blurs between two copies
};

class debugging_wrong_way : public cudalab::testing::gpu_test {
 protected:
  void SetUp() override {
    gpu_test::SetUp();
    if (IsSkipped()) return;
    if (cudalab::labs::find_compute_sanitizer().empty())
      GTEST_SKIP() << "compute-sanitizer not found: " +
                          cudalab::labs::how_to_get_compute_sanitizer();
    ::setenv("CUDALAB_CHECK_RUNNER", CUDALAB_LAB07_RUNNER, 1);
  }
};

// One name per wrong way, so CTest lists each. Whether the racing one gets the right answer
// depends on how the warps run, so only the store_unguarded one is held to it.
TEST_F(debugging_wrong_way, CUDALAB_WRONG_WAY) {
  const std::string way = CUDALAB_NAME_OF(CUDALAB_WRONG_WAY);
  const auto expected = failing_line.find(way);
  ASSERT_NE(expected, failing_line.end()) << way << " has no expected failing line here";

  const cudalab::grade_outcome o =
      cudalab::grade_exercise(cudalab::labs::make_lab_07_debugging(), 0);
  std::cout << cudalab::testing::describe(o) << "\n";
  if (way == "store_unguarded" || way == "host_blur") {
    EXPECT_TRUE(o.exercise.verification.ok) << o.exercise.verification.detail;
  }
  EXPECT_FALSE(o.report.passed) << way << " passed the grader";
  bool found = false;
  for (const auto& line : o.report.lines) {
    if (line.rfind(expected->second, 0) != 0) continue;
    found = true;
    EXPECT_EQ(line.substr(line.size() - 6), "  FAIL") << way << ": " << line;
  }
  EXPECT_TRUE(found) << "no line '" << expected->second << "'";
  EXPECT_FALSE(o.report.hint.empty());
}

}  // namespace
