// `cudalab check 02` on wrong ways of doing the exercise (tests/wrong/*.cu), each graded as
// the exercise (cudalab/testing/wrong_way_test.hpp) and failed on the line named here.
#include "memory_lab.hpp"

#include "cudalab/testing/wrong_way_test.hpp"

// accumulate_in_out: out loaded and stored at every step. reduce_into_out: the terms added by
// global atomics, which the sectors lines do not count.
CUDALAB_WRONG_WAY_TEST(memory_wrong_way, cudalab::labs::make_lab_02_memory_spaces,
                       {"accumulate_in_out", "global sectors"},
                       {"reduce_into_out", "other memory paths"})
