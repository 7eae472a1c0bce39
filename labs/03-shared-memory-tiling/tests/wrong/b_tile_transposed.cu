// A wrong way to do lab 03's exercise, kept as a test input for the grader: the B tile is
// stored transposed (b_tile[column][row]), so that a thread's products read a row of each tile.
// The product is right and the global traffic is the tiled kernel's, but a warp's lanes now
// write and read words 16 apart in the B tile: the 16 columns of a 16 x 16 tile fall into two
// banks, and every shared access of the B tile serializes about 8 ways. The grader fails it on
// shared conflicts.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

constexpr unsigned tile = fixed_tile;

__global__ void b_tile_transposed_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile_t[tile][tile];  // [column][row]
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * tile + ty;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * tile + tx;
  float sum = 0.0f;
  for (unsigned first = 0; first < n; first += tile) {
    const std::size_t a_col = first + tx, b_row = first + ty;
    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
    b_tile_t[tx][ty] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (unsigned k = 0; k < tile; ++k) sum += a_tile[ty][k] * b_tile_t[tx][k];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_MATMUL_WAY(b_tile_transposed_kernel, "wrong way: the B tile stored transposed")
