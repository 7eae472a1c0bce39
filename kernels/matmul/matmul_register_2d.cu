// register_2d: an 8 x 8 block of outputs a thread. A 256-thread block owns a 128 x 128 tile of
// C and walks the inner dimension 8 columns at a time; at each column k a thread reads 8 values
// of A and 8 of B from shared memory into registers and takes their 64 products, so each value
// read feeds 8 multiply-adds.
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::matmul {
namespace {

template <unsigned BM, unsigned BN, unsigned BK, unsigned TM, unsigned TN>
__global__ void __launch_bounds__(BM* BN / (TM * TN))
    register_2d_kernel(const float* a, const float* b, float* c, unsigned n) {
  constexpr unsigned threads = BM * BN / (TM * TN);
  static_assert(BM * BK % threads == 0 && BK * BN % threads == 0, "whole load slots a thread");
  __shared__ float tiles[BM * BK + BK * BN];
  const unsigned t = threadIdx.x;
  const std::size_t row0 = block_first_row(blockIdx.y, BM);
  const std::size_t col0 = block_first_col(blockIdx.x, BN);
  float acc[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  const unsigned steps = inner_steps(n, BK);
  for (unsigned s = 0; s < steps; ++s) {
#pragma unroll
    for (unsigned i = 0; i < BM * BK / threads; ++i) {
      const unsigned slot = thread_slot(t, i, threads);
      const unsigned r = slot_row(slot, BK, 1), k = slot_col(slot, BK, 1);
      const std::size_t row = row0 + r, col = step_index(s, BK, k);
      tiles[a_word(r, k, BM, BK, false)] =
          row < n && col < n ? a[element_index(row, col, n)] : 0.0f;
    }
#pragma unroll
    for (unsigned i = 0; i < BK * BN / threads; ++i) {
      const unsigned slot = thread_slot(t, i, threads);
      const unsigned k = slot_row(slot, BN, 1), cc = slot_col(slot, BN, 1);
      const std::size_t row = step_index(s, BK, k), col = col0 + cc;
      tiles[b_word(k, cc, BM, BN, BK)] = row < n && col < n ? b[element_index(row, col, n)] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
      for (unsigned i = 0; i < TM; ++i)
        a_reg[i] = tiles[a_word(block2d_row(t, BN, TM, TN, i), k, BM, BK, false)];
#pragma unroll
      for (unsigned j = 0; j < TN; ++j)
        b_reg[j] = tiles[b_word(k, block2d_col(t, BN, TN, j), BM, BN, BK)];
#pragma unroll
      for (unsigned i = 0; i < TM; ++i)
#pragma unroll
        for (unsigned j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (unsigned i = 0; i < TM; ++i)
#pragma unroll
    for (unsigned j = 0; j < TN; ++j) {
      const std::size_t row = row0 + block2d_row(t, BN, TM, TN, i);
      const std::size_t col = col0 + block2d_col(t, BN, TN, j);
      if (row < n && col < n) c[element_index(row, col, n)] = acc[i][j];
    }
}

constexpr block_tiling T = register_2d_tiling;
constexpr auto kernel = &register_2d_kernel<T.bm, T.bn, T.bk, T.tm, T.tn>;
static_assert(T.threads == T.bm * T.bn / (T.tm * T.tn), "register_2d: tm x tn outputs a thread");

}  // namespace

launch_dims launch_register_2d(const float* a, const float* b, float* c, std::size_t n,
                               cudaStream_t stream) {
  const launch_dims d = block_tiled_dims(n, T);
  kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

kernel_resources register_2d_resources() {
  return query_kernel_resources(reinterpret_cast<const void*>(kernel), "register_2d_kernel",
                                static_cast<int>(T.threads));
}

}  // namespace cudalab::matmul
