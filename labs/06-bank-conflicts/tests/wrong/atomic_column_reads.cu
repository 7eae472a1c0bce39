// A wrong way to do lab 06's exercise, kept as a test input for the grader: the plain, unpadded
// tile, but its columns read with shared atomics (atomicAdd of 0 returns the word: ATOMS, not
// LDS). The column reads are the 32-way conflicts of shared_tile; the conflict line counts the
// loads and stores of shared memory, LDS and STS, and reads none here. The grader fails it on
// the line that counts the other memory paths, shared atomics among them.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void atomic_column_reads_kernel(const float* in, float* out, unsigned rows,
                                           unsigned cols) {
  __shared__ float tile[32][32];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  std::size_t r = static_cast<std::size_t>(blockIdx.y) * 32 + ty;
  std::size_t c = static_cast<std::size_t>(blockIdx.x) * 32 + tx;
  if (r < rows && c < cols) tile[ty][tx] = in[r * cols + c];
  __syncthreads();
  r = static_cast<std::size_t>(blockIdx.y) * 32 + tx;
  c = static_cast<std::size_t>(blockIdx.x) * 32 + ty;
  if (r < rows && c < cols) out[c * rows + r] = atomicAdd(&tile[tx][ty], 0.0f);
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_TRANSPOSE_WAY(atomic_column_reads_kernel,
                      "wrong way: the tile's columns read by shared atomics")
