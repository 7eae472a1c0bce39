// A right way to do lab 06's exercise, kept as a test input for the grader: no shared memory at
// all. Each warp transposes one 32 x 32 tile in its registers. Lane l loads column l of the tile,
// one element a row (32 loads, each a row of 32 consecutive floats across the warp); five rounds
// of __shfl_xor_sync then move element (r, c) from lane c, register r, to lane r, register c
// (round s swaps bit s of the lane with bit s of the register wherever the two differ); lane l
// then holds row l and stores it as column l of the output, one element an output row (32
// stores, each 32 consecutive floats). With no shared memory there is no bank to conflict in:
// the lesson's goal, coalesced on both sides, reached by another road. The grader must pass it:
// the padded transpose's requests and sectors, no conflicts, no memory path beside global.
#include "../graded_way.cuh"

#include "transpose/transpose_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

constexpr unsigned tiles_a_block = 4;  // warps a block, each its own tile down the rows

__global__ void warp_shuffle_transpose_kernel(const float* in, float* out, unsigned rows,
                                              unsigned cols) {
  const unsigned lane = threadIdx.x;
  const std::size_t r0 = (static_cast<std::size_t>(blockIdx.y) * tiles_a_block + threadIdx.y) * 32;
  const std::size_t c0 = static_cast<std::size_t>(blockIdx.x) * 32;
  if (r0 >= rows) return;  // a whole warp past the matrix: no lane of it has work

  float v[32];  // lane l: v[r] = tile element (r, l), then v[c] = element (l, c)
#pragma unroll
  for (unsigned r = 0; r < 32; ++r)
    v[r] = r0 + r < rows && c0 + lane < cols ? in[(r0 + r) * cols + c0 + lane] : 0.0f;

#pragma unroll
  for (unsigned s = 16; s > 0; s >>= 1) {
    const bool high = (lane & s) != 0;
#pragma unroll
    for (unsigned j = 0; j < 32; ++j) {
      if (j & s) continue;
      // The element whose register bit s differs from the lane's bit s goes to the partner.
      const float sent = high ? v[j] : v[j | s];
      const float got = __shfl_xor_sync(0xffffffffu, sent, s);
      if (high)
        v[j] = got;
      else
        v[j | s] = got;
    }
  }

#pragma unroll
  for (unsigned c = 0; c < 32; ++c)
    if (c0 + c < cols && r0 + lane < rows) out[(c0 + c) * rows + r0 + lane] = v[c];
}

transpose::launch_dims launch_exercise(const float* in, float* out, std::size_t rows,
                                       std::size_t cols, cudaStream_t stream) {
  const transpose::launch_dims d{
      dim3(static_cast<unsigned>((cols + 31) / 32),
           static_cast<unsigned>((rows + 32 * tiles_a_block - 1) / (32 * tiles_a_block))),
      dim3(32, tiles_a_block)};
  warp_shuffle_transpose_kernel<<<d.grid, d.block, 0, stream>>>(
      in, out, static_cast<unsigned>(rows), static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_TRANSPOSE_WAY_LAUNCHED(&cudalab::labs::launch_exercise,
                               "right way: each warp transposes a tile in registers by shuffles")
