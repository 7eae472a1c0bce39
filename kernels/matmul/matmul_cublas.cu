// The cuBLAS baseline: cublasSgemm in plain FP32.
//
// cuBLAS is column-major and the lab's matrices are row-major. A row-major matrix read as
// column-major is its transpose, so the call computes C^T = B^T A^T: B passed first, A second,
// every leading dimension n, and C comes out row-major.
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"

#include <cublas_v2.h>

#include <cstdio>
#include <string>

namespace cudalab::matmul {
namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw error(std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
                cublasGetStatusString(status) + ")");
}

}  // namespace

void destroy_cublas::operator()(cublasContext* handle) const noexcept {
  const cublasStatus_t status = cublasDestroy(handle);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cudalab: cublasDestroy failed: %s\n", cublasGetStatusName(status));
}

cublas_product::cublas_product() {
  check_cublas(cublasCreate(m_handle.receive()), "cublasCreate");
  // Default math: FP32 FMAs throughout. Tensor-op math (TF32) would be several times faster
  // and round the inputs to 10 mantissa bits: a different product, not a faster one.
  check_cublas(cublasSetMathMode(m_handle.get(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

void cublas_product::run(const float* a, const float* b, float* c, std::size_t n,
                         cudaStream_t stream) {
  check_side(n);
  check_cublas(cublasSetStream(m_handle.get(), stream), "cublasSetStream");
  const float one = 1.0f, zero = 0.0f;
  const int side = static_cast<int>(n);
  check_cublas(cublasSgemm(m_handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, side, side, side, &one, b,
                           side, a, side, &zero, c, side),
               "cublasSgemm");
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace cudalab::matmul
