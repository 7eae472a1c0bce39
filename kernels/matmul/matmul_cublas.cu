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

cublasHandle_t handle_of(void* h) { return static_cast<cublasHandle_t>(h); }

}  // namespace

cublas_product::cublas_product() {
  cublasHandle_t h = nullptr;
  check_cublas(cublasCreate(&h), "cublasCreate");
  m_handle = h;
  // Default math: FP32 FMAs throughout. Tensor-op math (TF32) would be several times faster
  // and round the inputs to 10 mantissa bits: a different product, not a faster one.
  const cublasStatus_t math = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  if (math != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(h);  // the destructor does not run for a constructor that throws
    m_handle = nullptr;
    check_cublas(math, "cublasSetMathMode");
  }
}

cublas_product::~cublas_product() {
  if (!m_handle) return;
  // A destructor must not throw: a failure is reported on stderr.
  const cublasStatus_t status = cublasDestroy(handle_of(m_handle));
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cudalab: cublasDestroy failed: %s\n", cublasGetStatusName(status));
}

void cublas_product::run(const float* a, const float* b, float* c, std::size_t n,
                         cudaStream_t stream) {
  check_side(n);
  check_cublas(cublasSetStream(handle_of(m_handle), stream), "cublasSetStream");
  const float one = 1.0f, zero = 0.0f;
  const int side = static_cast<int>(n);
  check_cublas(cublasSgemm(handle_of(m_handle), CUBLAS_OP_N, CUBLAS_OP_N, side, side, side, &one, b,
                           side, a, side, &zero, c, side),
               "cublasSgemm");
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace cudalab::matmul
