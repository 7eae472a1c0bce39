// A wrong way to do lab 06's exercise, kept as a test input for the grader: the tile is padded
// by two columns (`tile[32][34]`) instead of one. The transpose is right and both global sides
// are coalesced, but a column's words are 34 apart, bank (2 r + c) mod 32: lanes r and r + 16
// share a bank, so every column read is a 2-way conflict. The grader fails it on shared
// conflicts: the pitch must be odd in words, not merely different from 32.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void pad_two_words_kernel(const float* in, float* out, unsigned rows, unsigned cols) {
  __shared__ float tile[32][34];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  std::size_t r = static_cast<std::size_t>(blockIdx.y) * 32 + ty;
  std::size_t c = static_cast<std::size_t>(blockIdx.x) * 32 + tx;
  if (r < rows && c < cols) tile[ty][tx] = in[r * cols + c];
  __syncthreads();
  r = static_cast<std::size_t>(blockIdx.y) * 32 + tx;
  c = static_cast<std::size_t>(blockIdx.x) * 32 + ty;
  if (r < rows && c < cols) out[c * rows + r] = tile[tx][ty];
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_TRANSPOSE_WAY(pad_two_words_kernel, "wrong way: the tile padded by two words")
