// The grader of `cudalab check 06` against the lab's own variants on the GPU: every fixed float
// transpose graded as the exercise must PASS, every naive one must FAIL
// (cudalab/testing/grader_tests.hpp).
#include "cudalab/testing/grader_tests.hpp"

namespace cudalab::labs {
lab make_lab_06_bank_conflicts();
}

namespace {

CUDALAB_GRADER_TESTS(lab06, transpose, cudalab::labs::make_lab_06_bank_conflicts);

}  // namespace
