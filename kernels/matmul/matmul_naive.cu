// The naive product: one output a thread, straight from global memory.
#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::matmul {
namespace {

// Every thread reads a whole row of A and a whole column of B: 2n loads for 2n flops. The 32
// lanes of a warp share their row (A: one address, broadcast) and read 32 consecutive floats of
// B, so a step of the loop costs two requests and about five sectors.
__global__ void naive_kernel(const float* a, const float* b, float* c, unsigned n) {
  const std::size_t row = output_row(blockIdx.y, blockDim.y, threadIdx.y);
  const std::size_t col = output_col(blockIdx.x, blockDim.x, threadIdx.x);
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (unsigned k = 0; k < n; ++k) sum += a[element_index(row, k, n)] * b[element_index(k, col, n)];
  c[element_index(row, col, n)] = sum;
}

}  // namespace

launch_dims launch_naive(const float* a, const float* b, float* c, std::size_t n, unsigned threads,
                         cudaStream_t stream) {
  const launch_dims d = naive_dims(n, threads);
  naive_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::matmul
