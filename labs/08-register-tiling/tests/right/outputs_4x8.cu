// A right way to do lab 08's exercise, kept as a test input for the grader: a tiling other than
// the solution's. 16 x 16 threads own a 64 x 128 tile of C, 4 x 8 outputs a thread, rows ty + 16 i
// and columns tx + 16 j, so that a warp's reads of either shared tile touch one word a bank; the
// inner dimension goes 16 at a time through a 64 x 16 tile of A and a 16 x 128 tile of B. At each
// k a thread reads 4 values of A and 8 of B into registers for 32 multiply-adds: 12 shared loads
// for 32 FFMAs, 0.375 a multiply-add. The grader must pass it: right, under the 0.45 line, FP32
// FFMAs only, no other memory path, and well above a quarter of cuBLAS's speed.
#include "regtile_variants.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

constexpr unsigned threads_x = 16, threads_y = 16, threads = threads_x * threads_y;
constexpr unsigned outputs_y = 4, outputs_x = 8;
constexpr unsigned tile_rows = threads_y * outputs_y;  // 64 rows of C and of A a block
constexpr unsigned tile_cols = threads_x * outputs_x;  // 128 columns of C and of B a block
constexpr unsigned depth = 16;                         // the inner dimension a step

__global__ void __launch_bounds__(threads)
    outputs_4x8_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[tile_rows][depth];
  __shared__ float b_tile[depth][tile_cols];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, thread = ty * threads_x + tx;
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * tile_rows;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * tile_cols;
  float acc[outputs_y][outputs_x] = {};
  for (unsigned first = 0; first < n; first += depth) {
    // Consecutive threads take consecutive elements of each tile: a warp reads rows of A and B.
#pragma unroll
    for (unsigned e = thread; e < tile_rows * depth; e += threads) {
      const std::size_t r = row0 + e / depth, k = first + e % depth;
      a_tile[e / depth][e % depth] = r < n && k < n ? a[r * n + k] : 0.0f;
    }
#pragma unroll
    for (unsigned e = thread; e < depth * tile_cols; e += threads) {
      const std::size_t k = first + e / tile_cols, col = col0 + e % tile_cols;
      b_tile[e / tile_cols][e % tile_cols] = k < n && col < n ? b[k * n + col] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < depth; ++k) {
      float a_values[outputs_y], b_values[outputs_x];
#pragma unroll
      for (unsigned i = 0; i < outputs_y; ++i) a_values[i] = a_tile[ty + threads_y * i][k];
#pragma unroll
      for (unsigned j = 0; j < outputs_x; ++j) b_values[j] = b_tile[k][tx + threads_x * j];
#pragma unroll
      for (unsigned i = 0; i < outputs_y; ++i)
#pragma unroll
        for (unsigned j = 0; j < outputs_x; ++j)
          acc[i][j] = fmaf(a_values[i], b_values[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (unsigned i = 0; i < outputs_y; ++i)
#pragma unroll
    for (unsigned j = 0; j < outputs_x; ++j) {
      const std::size_t r = row0 + ty + threads_y * i, col = col0 + tx + threads_x * j;
      if (r < n && col < n) c[r * n + col] = acc[i][j];
    }
}

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned, cudaStream_t stream) {
  matmul::check_side(n);
  const matmul::launch_dims d{dim3(static_cast<unsigned>((n + tile_cols - 1) / tile_cols),
                                   static_cast<unsigned>((n + tile_rows - 1) / tile_rows)),
                              dim3(threads_x, threads_y)};
  outputs_4x8_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "right way: 4 x 8 outputs a thread, a 64 x 128 tile a block",
                               launch_exercise, std::nullopt, false});
}

}  // namespace cudalab::labs
