// warp_tiled: a warp-level tile between the block's and the thread's. A block owns a BM x BN
// tile of C; each of its warps owns a WM x WN part of it, walked in WM_ITER x WN_ITER sub-tiles;
// in each sub-tile a lane computes a TM x TN block of outputs. The loads are vectorized's
// (16-byte global loads, 4-byte ones when n % 4 != 0; the A tile stored transposed) and a
// thread reads its A and B values from shared memory 16 bytes at a time. Keeping a warp's
// 32 lanes on a compact WM x WN region makes the shared-memory reads of a warp touch few
// distinct words (broadcasts) and gives each thread WM_ITER TM x WN_ITER TN outputs.
// The tile sizes are template arguments; warp_tiled_tilings lists the built configurations.
#include "matmul/register_tiling_device.cuh"
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

#include <array>
#include <string>
#include <utility>

namespace cudalab::matmul {
namespace {

template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned WN_ITER,
          unsigned TM, unsigned TN, unsigned THREADS>
__global__ void __launch_bounds__(THREADS)
    warp_tiled_kernel(const float* a, const float* b, float* c, unsigned n) {
  constexpr unsigned WM_ITER = WM * WN / (32 * TM * TN * WN_ITER);
  static_assert(WM_ITER >= 1 && WM * WN == 32 * TM * TN * WN_ITER * WM_ITER, "whole sub-tiles");
  static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp a warp tile");
  static_assert(BM * BK % (4 * THREADS) == 0 && BK * BN % (4 * THREADS) == 0,
                "whole 4-float load slots a thread");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "16-byte shared reads");
  __shared__ __align__(16) float tiles[BM * BK + BK * BN];
  const unsigned t = threadIdx.x;
  const bool wide = rows_are_16_byte_aligned(n);
  const std::size_t row0 = block_first_row(blockIdx.y, BM);
  const std::size_t col0 = block_first_col(blockIdx.x, BN);
  float acc[WM_ITER * TM][WN_ITER * TN] = {};
  float a_reg[WM_ITER * TM], b_reg[WN_ITER * TN];
  const unsigned steps = inner_steps(n, BK);
  for (unsigned s = 0; s < steps; ++s) {
#pragma unroll
    for (unsigned i = 0; i < BM * BK / (4 * THREADS); ++i) {
      const unsigned slot = thread_slot(t, i, THREADS);
      const unsigned r = slot_row(slot, BK, 4), k = slot_col(slot, BK, 4);
      const float4 v = load_four(a, row0 + r, step_index(s, BK, k), n, wide);
      tiles[a_word(r, k, BM, BK, true)] = v.x;
      tiles[a_word(r, k + 1, BM, BK, true)] = v.y;
      tiles[a_word(r, k + 2, BM, BK, true)] = v.z;
      tiles[a_word(r, k + 3, BM, BK, true)] = v.w;
    }
#pragma unroll
    for (unsigned i = 0; i < BK * BN / (4 * THREADS); ++i) {
      const unsigned slot = thread_slot(t, i, THREADS);
      const unsigned k = slot_row(slot, BN, 4), cc = slot_col(slot, BN, 4);
      *reinterpret_cast<float4*>(&tiles[b_word(k, cc, BM, BN, BK)]) =
          load_four(b, step_index(s, BK, k), col0 + cc, n, wide);
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < BK; ++k)
      warp_tile_column<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN>(tiles, t, k, a_reg, b_reg,
                                                                     acc);
    __syncthreads();
  }
#pragma unroll
  for (unsigned mi = 0; mi < WM_ITER; ++mi)
#pragma unroll
    for (unsigned i = 0; i < TM; ++i)
#pragma unroll
      for (unsigned ni = 0; ni < WN_ITER; ++ni)
#pragma unroll
        for (unsigned j = 0; j < TN; ++j) {
          const std::size_t row =
              row0 + warp_tile_row(t, BN, WM, WN, WM_ITER, WN_ITER, TM, TN, mi, i);
          const std::size_t col = col0 + warp_tile_col(t, BN, WN, WN_ITER, TN, ni, j);
          if (row < n && col < n) c[element_index(row, col, n)] = acc[mi * TM + i][ni * TN + j];
        }
}

using product_kernel = void (*)(const float*, const float*, float*, unsigned);
template <std::size_t... Config>
constexpr std::array<product_kernel, sizeof...(Config)> kernels_of(std::index_sequence<Config...>) {
  constexpr block_tiling T[] = {warp_tiled_tilings[Config]...};
  return {&warp_tiled_kernel<T[Config].bm, T[Config].bn, T[Config].bk, T[Config].wm, T[Config].wn,
                             T[Config].wn_iter, T[Config].tm, T[Config].tn, T[Config].threads>...};
}
// The kernel of each configuration.
constexpr std::array<product_kernel, warp_tiled_configs> kernels =
    kernels_of(std::make_index_sequence<warp_tiled_configs>{});

}  // namespace

launch_dims launch_warp_tiled(const float* a, const float* b, float* c, std::size_t n,
                              unsigned config, cudaStream_t stream) {
  const launch_dims d = block_tiled_dims(n, warp_tiled_tiling(config));
  kernels[config]<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

kernel_resources warp_tiled_resources(unsigned config) {
  const block_tiling& tiling = warp_tiled_tiling(config);
  return query_kernel_resources(reinterpret_cast<const void*>(kernels[config]),
                                "warp_tiled_kernel (config " + std::to_string(config) + ")",
                                static_cast<int>(tiling.threads));
}

}  // namespace cudalab::matmul
