// The grader of `cudalab check 08` against the lab's own variants on the GPU: every fixed variant
// graded as the exercise must PASS, every naive one must FAIL (cudalab/testing/grader_tests.hpp).
#include "cudalab/testing/grader_tests.hpp"

namespace cudalab::labs {
lab make_lab_08_register_tiling();
}

namespace {

CUDALAB_GRADER_TESTS(lab08, regtile, cudalab::labs::make_lab_08_register_tiling);

}  // namespace
