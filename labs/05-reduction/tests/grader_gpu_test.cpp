// The grader of `cudalab check 05` against the lab's own variants on the GPU: every fixed variant
// graded as the exercise must PASS, every other graded one must FAIL
// (cudalab/testing/grader_tests.hpp).
#include "cudalab/testing/grader_tests.hpp"

namespace cudalab::labs {
lab make_lab_05_reduction();
}

namespace {

CUDALAB_GRADER_TESTS(lab05, reduction, cudalab::labs::make_lab_05_reduction);

}  // namespace
