// `cudalab check 05` on wrong ways of doing the exercise (tests/wrong/*.cu), each graded as
// the exercise (cudalab/testing/wrong_way_test.hpp) and failed on the line named here.
#include "cudalab/testing/wrong_way_test.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/testing/one_lab_registry.hpp"

namespace cudalab::labs {
lab make_lab_05_reduction();
}

// This test binary registers lab 05 alone, built against the wrong way it links.
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_05_reduction)

CUDALAB_WRONG_WAY_TEST(reduction_wrong_way, cudalab::labs::make_lab_05_reduction,
                       {"atomic_block_sum", "global writes"},       // 8 REDG and a store a block
                       {"warp_atomic_sum", "global writes"},        // a REDG a warp
                       {"shared_atomic_sum", "shared wavefronts"})  // a CAS loop on the shared word
