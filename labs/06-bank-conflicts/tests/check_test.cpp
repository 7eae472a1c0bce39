// `cudalab check 06-bank-conflicts` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: the plain tile must FAIL on
// shared conflicts, with a hint) and against the reference solution (1: it must PASS every line).
#include "transpose_lab.hpp"

#include "cudalab/testing/check_test.hpp"

CUDALAB_CHECK_TESTS(transpose_check, cudalab::labs::make_lab_06_bank_conflicts, 9,
                    untouched_exercise_fails_on_shared_conflicts_with_a_hint, 4)
