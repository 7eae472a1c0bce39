// `cudalab check 04` on honest alternatives to the solution (tests/right/*.cu), each graded as
// the exercise (cudalab/testing/right_way_test.hpp): every line must pass.
#include "coalescing_lab.hpp"

#include "cudalab/testing/right_way_test.hpp"

// cp_async_staged: the solution's tile filled by 4-byte cp.async (LDGSTS.ACCESS) rather than
// LDG + STS; cp_async_16_bytes: by 16-byte cp.async (LDGSTS.BYPASS), four floats a lane.
CUDALAB_RIGHT_WAY_TEST(coalescing_right_way, cudalab::labs::make_lab_04_coalescing)
