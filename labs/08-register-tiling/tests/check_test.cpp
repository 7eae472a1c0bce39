// `cudalab check 08-register-tiling` on the GPU, built twice (cmake/cudalab_helpers.cmake):
// against the untouched exercise (CUDALAB_EXPECT_CHECK_PASS 0: one output a thread must FAIL
// on loads per multiply-add and on speed, with a hint) and against the reference solution (1: it
// must PASS every line).
#include "regtile_lab.hpp"

#include "cudalab/testing/check_test.hpp"

CUDALAB_CHECK_TESTS(regtile_check, cudalab::labs::make_lab_08_register_tiling, 8,
                    untouched_exercise_fails_on_loads_per_fma_with_a_hint, 1, 2)
