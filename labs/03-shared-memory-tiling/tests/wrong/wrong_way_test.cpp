// `cudalab check 03` on wrong ways of doing the exercise (tests/wrong/*.cu), each graded as
// the exercise (cudalab/testing/wrong_way_test.hpp) and failed on the line named here.
#include "matmul_lab.hpp"

#include "cudalab/testing/wrong_way_test.hpp"

// b_tile_transposed: B tile words 16 apart: two banks. texture_reads: the naive product through
// the texture path, which the load sectors line does not count.
CUDALAB_WRONG_WAY_TEST(matmul_wrong_way, cudalab::labs::make_lab_03_shared_memory_tiling,
                       {"b_tile_transposed", "shared conflicts"},
                       {"texture_reads", "other memory paths"})
