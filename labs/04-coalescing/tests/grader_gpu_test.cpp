// The grader of `cudalab check 04` against the lab's own variants on the GPU: every fixed variant
// graded as the exercise must PASS, every other graded one must FAIL
// (cudalab/testing/grader_tests.hpp).
#include "cudalab/testing/grader_tests.hpp"

namespace cudalab::labs {
lab make_lab_04_coalescing();
}

namespace {

CUDALAB_GRADER_TESTS(lab04, coalescing, cudalab::labs::make_lab_04_coalescing);

}  // namespace
