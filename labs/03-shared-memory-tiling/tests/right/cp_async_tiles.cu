// A right way to do lab 03's exercise, kept as a test input for the grader: the tiles are filled
// by cp.async (LDGSTS: global memory copied into shared memory without passing through a
// register) instead of a load and a shared store. It is the same tiling with the same global
// traffic: every float of A and B loaded once a tile step, a tile element past the matrix set to
// 0 by an ordinary shared store. LDGSTS is a global load the hardware counts apart from LDG; the
// grader must count it as the load it is and pass the kernel.
#include "../graded_way.cuh"

#include <cuda_pipeline.h>

namespace cudalab::labs {
namespace {

constexpr unsigned tile = fixed_tile;

// Tile element (ty, tx) from `from` (a float inside the matrix) or 0 (outside it).
__device__ void fill(float* element, const float* from, bool inside) {
  if (inside)
    __pipeline_memcpy_async(element, from, sizeof(float));
  else
    *element = 0.0f;
}

__global__ void cp_async_tiles_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * tile + ty;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * tile + tx;
  float sum = 0.0f;
  for (unsigned first = 0; first < n; first += tile) {
    const std::size_t a_col = first + tx, b_row = first + ty;
    fill(&a_tile[ty][tx], a + row * n + a_col, row < n && a_col < n);
    fill(&b_tile[ty][tx], b + b_row * n + col, b_row < n && col < n);
    __pipeline_commit();
    __pipeline_wait_prior(0);  // this thread's copies have landed
    __syncthreads();           // and every other thread's
    for (unsigned k = 0; k < tile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_MATMUL_WAY(cp_async_tiles_kernel, "right way: the tiles filled by cp.async (LDGSTS)")
