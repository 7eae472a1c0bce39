// The grader of `cudalab check 03` against the lab's own variants on the GPU: every fixed variant
// graded as the exercise must PASS, every other graded one must FAIL
// (cudalab/testing/grader_tests.hpp).
#include "cudalab/testing/grader_tests.hpp"

namespace cudalab::labs {
lab make_lab_03_shared_memory_tiling();
}

namespace {

CUDALAB_GRADER_TESTS(lab03, matmul, cudalab::labs::make_lab_03_shared_memory_tiling);

}  // namespace
