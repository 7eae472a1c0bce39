// A right way to do lab 06's exercise, kept as a test input for the grader: the tile is not
// padded but swizzled. It stays `tile[32][32]`, and element (r, c) of the block's tile is kept
// at column c XOR r of row r, so in word 32 r + (c ^ r), bank c ^ r. For a fixed r, c ^ r runs
// over 0..31 once as c does (a row fills the 32 banks once, as it would unswizzled), and for a
// fixed c it does the same as r does: the 32 words of a column fall in 32 different banks, and
// the column read that costs the plain tile 32 wavefronts costs one. The global sides are the
// exercise's: rows of the input loaded and rows of the output stored, 32 consecutive floats a
// warp, guarded at the matrix's edge (an element left unloaded there is one no thread reads).
// kernels/transpose/transpose_tiled.cu has the same layout as the `swizzled` variant.
// The grader must pass it: no bank conflict, and the padded transpose's sectors and requests,
// with 32 floats less shared memory a block.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void transpose_swizzled_tile_kernel(const float* in, float* out, unsigned rows,
                                               unsigned cols) {
  __shared__ float tile[32][32];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  // Load input (r, c) = (32 by + ty, 32 bx + tx) into tile element (ty, tx): a warp stores row
  // ty, lane tx in bank tx ^ ty.
  std::size_t r = static_cast<std::size_t>(blockIdx.y) * 32 + ty;
  std::size_t c = static_cast<std::size_t>(blockIdx.x) * 32 + tx;
  if (r < rows && c < cols) tile[ty][tx ^ ty] = in[r * cols + c];
  __syncthreads();
  // Store output (c, r) with r = 32 by + tx, c = 32 bx + ty from tile element (tx, ty): a warp
  // reads column ty, lane tx in bank ty ^ tx.
  r = static_cast<std::size_t>(blockIdx.y) * 32 + tx;
  c = static_cast<std::size_t>(blockIdx.x) * 32 + ty;
  if (r < rows && c < cols) out[c * rows + r] = tile[tx][ty ^ tx];
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_TRANSPOSE_WAY(transpose_swizzled_tile_kernel,
                      "right way: the tile swizzled, column c of row r at c XOR r")
