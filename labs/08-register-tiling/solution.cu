// Lab 08 exercise, a reference solution (built as cudalab_lab08_solution; the checker's tests
// prove that it passes `cudalab check 08` and that the untouched exercise fails).
//
// 256 threads own a 128 x 128 tile of C, an 8 x 8 block of outputs a thread, and walk the inner
// dimension 8 columns at a time. Each step copies a 128 x 8 tile of A and an 8 x 128 tile of B
// into shared memory (4 floats of each a thread, 0 past the matrix), then at each of the 8
// columns a thread reads 8 values of A and 8 of B into registers and takes their 64 products:
// a value read from shared memory feeds 8 multiply-adds instead of one.
#include "regtile_variants.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {

constexpr unsigned tile = 128, step = 8, per_thread = 8, threads = 256;

__global__ void __launch_bounds__(threads)
    register_exercise_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[tile][step];
  __shared__ float b_tile[step][tile];
  const unsigned t = threadIdx.x;
  const unsigned my_row = t / (tile / per_thread) * per_thread;
  const unsigned my_col = t % (tile / per_thread) * per_thread;
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * tile;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * tile;
  float sum[per_thread][per_thread] = {};
  float a_reg[per_thread], b_reg[per_thread];
  for (unsigned first = 0; first < n; first += step) {
    for (unsigned e = t; e < tile * step; e += threads) {
      const unsigned ar = e / step, ak = e % step;
      const std::size_t a_row = row0 + ar, a_col = first + ak;
      a_tile[ar][ak] = a_row < n && a_col < n ? a[a_row * n + a_col] : 0.0f;
      const unsigned bk = e / tile, bc = e % tile;
      const std::size_t b_row = first + bk, b_col = col0 + bc;
      b_tile[bk][bc] = b_row < n && b_col < n ? b[b_row * n + b_col] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < step; ++k) {
#pragma unroll
      for (unsigned i = 0; i < per_thread; ++i) a_reg[i] = a_tile[my_row + i][k];
#pragma unroll
      for (unsigned j = 0; j < per_thread; ++j) b_reg[j] = b_tile[k][my_col + j];
#pragma unroll
      for (unsigned i = 0; i < per_thread; ++i)
#pragma unroll
        for (unsigned j = 0; j < per_thread; ++j) sum[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
  for (unsigned i = 0; i < per_thread; ++i)
    for (unsigned j = 0; j < per_thread; ++j) {
      const std::size_t row = row0 + my_row + i, col = col0 + my_col + j;
      if (row < n && col < n) c[row * n + col] = sum[i][j];
    }
}

namespace {

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned, cudaStream_t stream) {
  matmul::check_side(n);
  const auto blocks = static_cast<unsigned>((n + tile - 1) / tile);
  const matmul::launch_dims d{dim3(blocks, blocks), dim3(threads)};
  register_exercise_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "your product (labs/08-register-tiling/exercise.cu)",
                               launch_exercise, std::nullopt, false});
}

}  // namespace cudalab::labs
