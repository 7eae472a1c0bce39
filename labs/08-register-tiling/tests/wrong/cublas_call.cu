// Wrong way to lab 08: the launcher calls cublasSgemm. The product is right and fast, and
// cuBLAS's kernel reads shared memory sparingly, so the counter lines (which count every kernel
// of the launch) pass: the work is the library's, not a kernel of the exercise. The grader's
// inventory of the launch names cuBLAS's kernel, and "kernels" fails.
#include "regtile_variants.hpp"

#include "cudalab/check.hpp"

#include <cublas_v2.h>

namespace cudalab::labs {
namespace {

cublasHandle_t shared_handle() {
  static const cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw error("cublasCreate failed");
    return h;
  }();
  return handle;
}

matmul::launch_dims launch_cublas(const float* a, const float* b, float* c, std::size_t n, unsigned,
                                  cudaStream_t stream) {
  cublasHandle_t handle = shared_handle();
  if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS)
    throw error("cublasSetStream failed");
  // Row-major C = A B is column-major C^T = B^T A^T.
  const float one = 1, zero = 0;
  const int side = static_cast<int>(n);
  if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, side, side, side, &one, b, side, a, side, &zero,
                  c, side) != CUBLAS_STATUS_SUCCESS)
    throw error("cublasSgemm failed");
  return {dim3(1), dim3(1)};
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "wrong way: the launcher calls cublasSgemm", launch_cublas,
                               std::nullopt, false});
}

}  // namespace cudalab::labs
