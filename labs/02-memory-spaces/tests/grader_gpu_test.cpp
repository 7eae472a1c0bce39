// The grader of `cudalab check 02` against the lab's own variants on the GPU: registers graded as
// the exercise must PASS, local_spill must FAIL (cudalab/testing/grader_tests.hpp).
#include "cudalab/testing/grader_tests.hpp"

namespace cudalab::labs {
lab make_lab_02_memory_spaces();
}

namespace {

CUDALAB_GRADER_TESTS(lab02, memory, cudalab::labs::make_lab_02_memory_spaces);

}  // namespace
