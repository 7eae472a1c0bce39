// `cudalab check 05` on honest alternatives to the solution (tests/right/*.cu), each graded as
// the exercise (cudalab/testing/right_way_test.hpp): every line must pass.
#include "reduction_lab.hpp"

#include "cudalab/testing/right_way_test.hpp"

// noinline_step: sequential addressing with the step in a __noinline__ helper (branches, fewer
// threads per instruction). warp_shuffle_tree: shuffles in registers, one word a warp in shared
// memory. cub_block_reduce: cub::BlockReduce in the learner's own kernel.
CUDALAB_RIGHT_WAY_TEST(reduction_right_way, cudalab::labs::make_lab_05_reduction)
