// The grader of `cudalab check 07` against the lab's own variants on the GPU: missing_sync_fixed
// graded as the exercise must PASS, missing_sync must FAIL (cudalab/testing/grader_tests.hpp).
// The grader runs each one under compute-sanitizer through the runner this build names.
#include "sanitizer_run.hpp"

#include "cudalab/testing/grader_tests.hpp"

#include <cstdlib>

#ifndef CUDALAB_LAB07_RUNNER
#error "compile with CUDALAB_LAB07_RUNNER=<a program that runs lab 07's variants>"
#endif

namespace cudalab::labs {
lab make_lab_07_debugging();
}

namespace {

// The variants are run by a program that has them (this test binary is not the tool).
class runner_environment : public ::testing::Environment {
 public:
  void SetUp() override { ::setenv("CUDALAB_CHECK_RUNNER", CUDALAB_LAB07_RUNNER, 1); }
};
::testing::Environment* const runner = ::testing::AddGlobalTestEnvironment(new runner_environment);

CUDALAB_GRADER_TESTS(lab07, debugging, cudalab::labs::make_lab_07_debugging);

}  // namespace
