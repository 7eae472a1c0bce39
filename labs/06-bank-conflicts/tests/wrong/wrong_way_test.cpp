// `cudalab check 06` on wrong ways of doing the exercise (tests/wrong/*.cu), each graded as
// the exercise (cudalab/testing/wrong_way_test.hpp) and failed on the line named here.
#include "transpose_lab.hpp"

#include "cudalab/testing/wrong_way_test.hpp"

// pad_two_words: a pitch of 34 words: 2-way column reads.
// one_lane_at_a_time: lanes take turns at global memory: one sector a request, 32 times the
// requests. texture_column_reads: the columns read through the texture path, no tile.
// copy_engine_transpose: a 2D copy a row on the copy engine, no kernel.
CUDALAB_WRONG_WAY_TEST(transpose_wrong_way, cudalab::labs::make_lab_06_bank_conflicts,
                       {"pad_two_words", "shared conflicts"}, {"one_lane_at_a_time", "requests"},
                       {"texture_column_reads", "other memory paths"},
                       {"copy_engine_transpose", "copies and memsets"})
