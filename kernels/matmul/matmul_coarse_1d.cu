// coarse_1d: several outputs a thread along one dimension. A 512-thread block owns a 64 x 64
// tile of C and walks the inner dimension 8 columns at a time; each thread keeps 8 outputs of
// one column in registers, so each B value it reads from shared memory feeds 8 multiply-adds
// (the A values still feed one each).
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::matmul {
namespace {

template <unsigned BM, unsigned BN, unsigned BK, unsigned TM>
__global__ void __launch_bounds__(BM* BN / TM)
    coarse_1d_kernel(const float* a, const float* b, float* c, unsigned n) {
  constexpr unsigned threads = BM * BN / TM;
  static_assert(BM * BK % threads == 0 && BK * BN % threads == 0, "whole load slots a thread");
  __shared__ float tiles[BM * BK + BK * BN];
  const unsigned t = threadIdx.x;
  const std::size_t row0 = block_first_row(blockIdx.y, BM);
  const std::size_t col0 = block_first_col(blockIdx.x, BN);
  float acc[TM] = {};
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
      const float bv = tiles[b_word(k, coarse_col(t, BN), BM, BN, BK)];
#pragma unroll
      for (unsigned i = 0; i < TM; ++i)
        acc[i] += tiles[a_word(coarse_row(t, BN, TM, i), k, BM, BK, false)] * bv;
    }
    __syncthreads();
  }
  const std::size_t col = col0 + coarse_col(t, BN);
#pragma unroll
  for (unsigned i = 0; i < TM; ++i) {
    const std::size_t row = row0 + coarse_row(t, BN, TM, i);
    if (row < n && col < n) c[element_index(row, col, n)] = acc[i];
  }
}

constexpr block_tiling T = coarse_1d_tiling;
constexpr auto kernel = &coarse_1d_kernel<T.bm, T.bn, T.bk, T.tm>;
static_assert(T.threads == T.bm * T.bn / T.tm, "coarse_1d: one column of tm outputs a thread");

}  // namespace

launch_dims launch_coarse_1d(const float* a, const float* b, float* c, std::size_t n,
                             cudaStream_t stream) {
  const launch_dims d = block_tiled_dims(n, T);
  kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

kernel_resources coarse_1d_resources() {
  return query_kernel_resources(reinterpret_cast<const void*>(kernel), "coarse_1d_kernel",
                                static_cast<int>(T.threads));
}

}  // namespace cudalab::matmul
