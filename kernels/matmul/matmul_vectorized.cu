// vectorized: register_2d (an 8 x 8 block of outputs a thread, 128 x 128 block tile, BK = 8)
// with 16-byte accesses. Each thread loads its slot of the A tile and of the B tile with one
// 16-byte load (4-byte loads when n % 4 != 0, since rows then start off 16-byte boundaries),
// stores the A slot transposed (As[k][m]) so that the 8 A values a thread needs at column k are
// consecutive, and reads A and B from shared memory with 16-byte loads: 4 a column instead of
// register_2d's 8 + 2.
#include "matmul/register_tiling_device.cuh"
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::matmul {
namespace {

template <unsigned BM, unsigned BN, unsigned BK, unsigned TM, unsigned TN>
__global__ void __launch_bounds__(BM* BN / (TM * TN))
    vectorized_kernel(const float* a, const float* b, float* c, unsigned n) {
  constexpr unsigned threads = BM * BN / (TM * TN);
  static_assert(BM * BK % (4 * threads) == 0 && BK * BN % (4 * threads) == 0,
                "whole 4-float load slots a thread");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "16-byte shared reads");
  __shared__ __align__(16) float tiles[BM * BK + BK * BN];
  const unsigned t = threadIdx.x;
  const bool wide = rows_are_16_byte_aligned(n);
  const std::size_t row0 = block_first_row(blockIdx.y, BM);
  const std::size_t col0 = block_first_col(blockIdx.x, BN);
  float acc[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  const unsigned steps = inner_steps(n, BK);
  for (unsigned s = 0; s < steps; ++s) {
#pragma unroll
    for (unsigned i = 0; i < BM * BK / (4 * threads); ++i) {
      const unsigned slot = thread_slot(t, i, threads);
      const unsigned r = slot_row(slot, BK, 4), k = slot_col(slot, BK, 4);
      const float4 v = load_four(a, row0 + r, step_index(s, BK, k), n, wide);
      tiles[a_word(r, k, BM, BK, true)] = v.x;
      tiles[a_word(r, k + 1, BM, BK, true)] = v.y;
      tiles[a_word(r, k + 2, BM, BK, true)] = v.z;
      tiles[a_word(r, k + 3, BM, BK, true)] = v.w;
    }
#pragma unroll
    for (unsigned i = 0; i < BK * BN / (4 * threads); ++i) {
      const unsigned slot = thread_slot(t, i, threads);
      const unsigned k = slot_row(slot, BN, 4), cc = slot_col(slot, BN, 4);
      *reinterpret_cast<float4*>(&tiles[b_word(k, cc, BM, BN, BK)]) =
          load_four(b, step_index(s, BK, k), col0 + cc, n, wide);
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
      for (unsigned i = 0; i < TM; i += 4) {
        const float4 v = *reinterpret_cast<const float4*>(
            &tiles[a_word(block2d_row(t, BN, TM, TN, i), k, BM, BK, true)]);
        a_reg[i] = v.x, a_reg[i + 1] = v.y, a_reg[i + 2] = v.z, a_reg[i + 3] = v.w;
      }
#pragma unroll
      for (unsigned j = 0; j < TN; j += 4) {
        const float4 v = *reinterpret_cast<const float4*>(
            &tiles[b_word(k, block2d_col(t, BN, TN, j), BM, BN, BK)]);
        b_reg[j] = v.x, b_reg[j + 1] = v.y, b_reg[j + 2] = v.z, b_reg[j + 3] = v.w;
      }
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

constexpr block_tiling T = vectorized_tiling;
constexpr auto kernel = &vectorized_kernel<T.bm, T.bn, T.bk, T.tm, T.tn>;
static_assert(T.threads == T.bm * T.bn / (T.tm * T.tn) && T.vec == 4 && T.a_transposed,
              "vectorized: tm x tn outputs a thread, 4-float slots, A transposed");

}  // namespace

launch_dims launch_vectorized(const float* a, const float* b, float* c, std::size_t n,
                              cudaStream_t stream) {
  const launch_dims d = block_tiled_dims(n, T);
  kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

kernel_resources vectorized_resources() {
  return query_kernel_resources(reinterpret_cast<const void*>(kernel), "vectorized_kernel",
                                static_cast<int>(T.threads));
}

}  // namespace cudalab::matmul
