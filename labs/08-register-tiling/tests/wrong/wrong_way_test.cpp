// `cudalab check 08` on wrong ways of doing the exercise (tests/wrong/*.cu), each graded as
// the exercise (cudalab/testing/wrong_way_test.hpp) and failed on the line named here.
#include "regtile_lab.hpp"

#include "cudalab/testing/wrong_way_test.hpp"

// cublas_call: the launcher calls cublasSgemm; every counter line passes on cuBLAS's kernel.
// tensor_cores: a TF32 wmma product: right within the tolerance, fast, few shared loads.
CUDALAB_WRONG_WAY_TEST(regtile_wrong_way, cudalab::labs::make_lab_08_register_tiling,
                       {"cublas_call", "kernels"}, {"tensor_cores", "tensor-core instructions"})
