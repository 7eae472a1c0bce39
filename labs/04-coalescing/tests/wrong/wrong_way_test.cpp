// `cudalab check 04` on wrong ways of doing the exercise (tests/wrong/*.cu), each graded as
// the exercise (cudalab/testing/wrong_way_test.hpp) and failed on the line named here.
#include "coalescing_lab.hpp"

#include "cudalab/testing/wrong_way_test.hpp"

// byte_staged: 32 bytes a request: four times the requests.
// atomic_loads: the float3 read through global atomics, which the load lines do not count.
CUDALAB_WRONG_WAY_TEST(coalescing_wrong_way, cudalab::labs::make_lab_04_coalescing,
                       {"byte_staged", "requests"}, {"atomic_loads", "other memory paths"})
