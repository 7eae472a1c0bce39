// `cudalab check 03-shared-memory-tiling` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the naive kernel must FAIL on
// load sectors, with a hint) and against the reference solution (1: it must PASS every line).
#include "matmul_lab.hpp"

#include "cudalab/testing/check_test.hpp"

CUDALAB_CHECK_TESTS(matmul_check, cudalab::labs::make_lab_03_shared_memory_tiling, 8,
                    untouched_exercise_fails_on_load_sectors_with_a_hint, 1)
