// cp_async_pipeline: warp_tiled (any of its configurations: tiles, warps and inner loop
// unchanged) with the next step's tiles fetched while the warps compute the current one. In
// warp_tiled each inner step loads the tiles, stores them to shared memory, waits at a barrier,
// computes, and waits at a second barrier before the tiles may be overwritten: while a block loads,
// its warps do no arithmetic, and only the SM's other blocks (two fit at configuration 0's
// registers) hide global memory's latency. Here shared memory holds two copies of the tiles (double
// buffering): step s is computed from one while step s + 1's arrive in the other, so a load has a
// whole step of arithmetic (2048 FMAs a thread in configuration 0) to arrive in, and one barrier a
// step does the work of two.
//
// The two tiles take different roads, each the cheaper for it:
// - B is copied by cp.async (LDGSTS: global memory to shared memory with no register in between
//   and no wait at the instruction), since its tile keeps global memory's layout.
// - A must be stored transposed (so that the inner loop reads 8 rows of one column with 2
//   LDS.128), which a cp.async cannot do. Its 16-byte loads (LDG.128) are issued before the
//   arithmetic, into registers the arithmetic does not touch, and stored transposed into the
//   other buffer after it: the load's latency hides behind the FMAs. Configurations 1 and 4 store
//   it in a layout without bank conflicts, the others in warp_tiled's (pipeline_conflict_free_a;
//   register_tiling_index.cuh says what each costs).
// A moves by 16-byte loads (4-byte ones when n % 4 != 0; in warp_tiled's slots, or the
// conflict-free layout's), B by 16-byte copies only when every row of B starts on a 32-byte
// sector (n % 8 == 0, rows_are_32_byte_aligned, which says why), else by 4-byte copies; the L1
// counts each of these copies as the global load it is, by the sectors its lanes touch (measured
// at n = 77, 1000, 1001, 1024 and 1028, labs/08-register-tiling/tests/counters_gpu_test.cpp; a
// 16-byte copy on a row that starts mid-sector is counted otherwise).
//
// Block b computes the tile grouped_tile gives it (groups of 8 rows of tiles), not tile b in
// row order: the blocks resident together then share rows of A and columns of B in L2.
// Configuration 0's 128 outputs a thread take over 220 registers: two blocks of 4 warps an SM.
// Configuration 4 spreads the same tile over 8 warps (128 registers), two blocks of 8 warps;
// cp_async_tuned runs the configuration the committed sweep found fastest at each size.
//
//   cudalab run 08 --variant warp_tiled,cp_async_pipeline,cublas --size 4096
//   cudalab run 08 --variant cp_async_pipeline,cublas --sweep config=0,4 --size 4096
#include "matmul/register_tiling_device.cuh"
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

#include <array>
#include <string>
#include <utility>

namespace cudalab::matmul {
namespace {

// The blocks an SM must hold of each configuration, for __launch_bounds__: two wherever the
// registers allow (at most 255 a thread at 128 threads, 128 at 256), four of configuration 3
// (at most 128 registers of 128 threads), one of configuration 2 (8 warps of 128 outputs), three
// of configuration 6 (at most 168 registers: its 96 outputs need more, and ptxas spills a few
// to local memory, which `cudalab run 08 --details cp_async_pipeline --sweep config=6` prints).
// Whether three blocks with the spill beat two (where a thread may hold up to 255) is not
// measured: `cudalab run 08 --variant cp_async_pipeline --sweep config=6 --size 4096,8192
// --no-counters` in a build with min_blocks_per_sm[6] = 2, beside the same run in this one,
// decides it.
constexpr unsigned min_blocks_per_sm[warp_tiled_configs] = {2, 2, 1, 4, 2, 2, 3};

template <unsigned Config>
struct pipeline {
  static constexpr block_tiling T = warp_tiled_tilings[Config];
  static_assert(T.vec == 4 && T.a_transposed, "cp_async_pipeline: 4-float slots, A transposed");
  static constexpr unsigned a_slots = T.bm * T.bk / (4 * T.threads);  // 16-byte A loads a step
  static constexpr unsigned b_slots = T.bk * T.bn / (4 * T.threads);  // 16-byte B copies a step
  static_assert(a_slots >= 1 && b_slots >= 1 && T.bm * T.bk % (4 * T.threads) == 0 &&
                    T.bk * T.bn % (4 * T.threads) == 0,
                "whole 4-float load slots a thread");
  static_assert(T.bm % 32 == 0 && T.bk % 8 == 0, "pipeline_a_word's layouts");
  static constexpr bool conflict_free_a = pipeline_conflict_free_a[Config];
  static constexpr unsigned a_pitch = pipeline_a_pitch(T.bm, conflict_free_a);
  // Two copies of the tiles: up to 49,664 bytes (configuration 2), past the 48 KB a kernel may
  // declare, so they are dynamic shared memory (launch_cp_async_pipeline sets the limit).
  static constexpr unsigned shared_bytes =
      2 * pipeline_stage_words(T.bm, T.bn, T.bk, conflict_free_a) * sizeof(float);

  // Issues the loads of step s's A slots into `v` (registers; nothing waits for them here).
  __device__ static void load_a(float4 (&v)[a_slots], const float* a, std::size_t row0, unsigned s,
                                unsigned n, bool wide) {
#pragma unroll
    for (unsigned i = 0; i < a_slots; ++i) {
      const unsigned slot = thread_slot(threadIdx.x, i, T.threads);
      const unsigned r = pipeline_a_slot_row(slot, T.bm, T.bk, conflict_free_a);
      const unsigned k = pipeline_a_slot_col(slot, T.bm, T.bk, conflict_free_a);
      v[i] = load_four(a, row0 + r, step_index(s, T.bk, k), n, wide);
    }
  }

  // Stores the loaded A slots transposed into `stage` (As[k][m], pipeline_a_word: warp_tiled's
  // layout, or the conflict-free one).
  __device__ static void store_a(float* stage, const float4 (&v)[a_slots]) {
#pragma unroll
    for (unsigned i = 0; i < a_slots; ++i) {
      const unsigned slot = thread_slot(threadIdx.x, i, T.threads);
      const unsigned r = pipeline_a_slot_row(slot, T.bm, T.bk, conflict_free_a);
      const unsigned k = pipeline_a_slot_col(slot, T.bm, T.bk, conflict_free_a);
      stage[pipeline_a_word(r, k, T.bm, conflict_free_a)] = v[i].x;
      stage[pipeline_a_word(r, k + 1, T.bm, conflict_free_a)] = v[i].y;
      stage[pipeline_a_word(r, k + 2, T.bm, conflict_free_a)] = v[i].z;
      stage[pipeline_a_word(r, k + 3, T.bm, conflict_free_a)] = v[i].w;
    }
  }

  // Starts the copies of step s's B slots into `stage`, one commit group.
  __device__ static void copy_b(float* stage, const float* b, std::size_t col0, unsigned s,
                                unsigned n, bool wide) {
#pragma unroll
    for (unsigned i = 0; i < b_slots; ++i) {
      const unsigned slot = thread_slot(threadIdx.x, i, T.threads);
      const unsigned k = slot_row(slot, T.bn, 4), cc = slot_col(slot, T.bn, 4);
      copy_four_async(&stage[pipeline_b_word(k, cc, T.bm, T.bn, T.bk, conflict_free_a)], b,
                      step_index(s, T.bk, k), col0 + cc, n, wide);
    }
    commit_copies();
  }
};

// Configuration 0: (128, 2) asks for two blocks an SM, which at 65,536 registers allows 256 a
// thread: no tighter than the hardware's own 255, so it only says what the kernel is built for.
// The 16 staging registers of A come on top of warp_tiled's 227; the compiler reuses some, and
// the two forms below differ (`cudalab run 08 --details cp_async_pipeline` prints the count of
// the form that runs).
//
// Each configuration is built twice. Aligned: for sides that are multiples of 8 (every row of
// both matrices starts on a 32-byte sector, rows_are_32_byte_aligned), where both tiles move
// 16 bytes at a time, known when the kernel is compiled, so that it holds no code or registers
// for 4-byte moves. Not aligned: every other side, the width decided at run time as in
// warp_tiled. The launcher picks by n (kernel_for). What the aligned form is worth in time is not
// measured: the launcher never gives the general form a multiple of 8, so the run that decides it
// is `cudalab run 08 --variant cp_async_pipeline --sweep full --size 4096,8192 --no-counters` in a
// build whose kernel_for always takes the general form, beside the same run in this one.
template <unsigned Config, bool Aligned>
__global__ void __launch_bounds__(warp_tiled_tilings[Config].threads, min_blocks_per_sm[Config])
    cp_async_pipeline_kernel(const float* a, const float* b, float* c, unsigned n) {
  using P = pipeline<Config>;
  constexpr block_tiling T = P::T;
  constexpr unsigned BM = T.bm, BN = T.bn, BK = T.bk, WM = T.wm, WN = T.wn, TM = T.tm, TN = T.tn;
  constexpr unsigned WN_ITER = T.wn_iter, WM_ITER = WM * WN / (32 * TM * TN * WN_ITER);
  static_assert(WM_ITER >= 1 && WM * WN == 32 * TM * TN * WN_ITER * WM_ITER, "whole sub-tiles");
  static_assert((BM / WM) * (BN / WN) * 32 == T.threads, "one warp a warp tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "16-byte shared reads");
  constexpr unsigned stage_words = pipeline_stage_words(BM, BN, BK, P::conflict_free_a);
  extern __shared__ __align__(16) float tiles[];  // two copies of (A tile, B tile)
  const unsigned t = threadIdx.x;
  // The general kernel keeps both tests at run time, though the launcher gives it no side that
  // is a multiple of 8: without the second, ptxas predicates some of its copies instead of
  // branching around them, and the three LDS before each (copy_16_async_if says why) would run
  // in warps with no copying lane, past what the model counts.
  const bool wide_a = Aligned || rows_are_16_byte_aligned(n);  // A: warp_tiled's rule
  const bool wide_b = Aligned || rows_are_32_byte_aligned(n);  // B: 16-byte copies, whole sectors
  const tile_position tile =
      grouped_tile(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, pipeline_block_group);
  const std::size_t row0 = block_first_row(tile.y, BM);
  const std::size_t col0 = block_first_col(tile.x, BN);
  float acc[WM_ITER * TM][WN_ITER * TN] = {};
  float a_reg[WM_ITER * TM], b_reg[WN_ITER * TN];
  float4 a_next[P::a_slots];
  const unsigned steps = inner_steps(n, BK);
  // Step 0 into copy 0, waited for: the pipeline's fill.
  P::load_a(a_next, a, row0, 0, n, wide_a);
  P::copy_b(tiles, b, col0, 0, n, wide_b);
  P::store_a(tiles, a_next);
  wait_copies<0>();
  __syncthreads();
  for (unsigned s = 0; s < steps; ++s) {
    const float* cur = &tiles[stage_of(s, 2) * stage_words];
    float* next = &tiles[stage_of(s + 1, 2) * stage_words];
    const bool more = s + 1 < steps;
    // Step s + 1's loads leave now and land during the arithmetic. `next` is free: every warp
    // finished reading it (step s - 1) before the barrier that ended the last iteration.
    if (more) {
      P::load_a(a_next, a, row0, s + 1, n, wide_a);
      P::copy_b(next, b, col0, s + 1, n, wide_b);
    }
#pragma unroll
    for (unsigned k = 0; k < BK; ++k)
      warp_tile_column<BM, BN, BK, WM, WN, WM_ITER, WN_ITER, TM, TN, P::a_pitch>(cur, t, k, a_reg,
                                                                                 b_reg, acc);
    // Step s + 1's A goes in after the arithmetic (its loads have had the whole of it to
    // arrive); its B copies are waited for. The one barrier then says both that step s + 1's
    // tiles are whole and that every warp is done with `cur`, which the next iteration refills.
    if (more) P::store_a(next, a_next);
    wait_copies<0>();
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
// A configuration's two kernels: [0] for sides that are not multiples of 8 (it is correct for
// any), [1] for sides that are multiples of 8.
using kernel_pair = std::array<product_kernel, 2>;
template <std::size_t... Config>
constexpr std::array<kernel_pair, sizeof...(Config)> kernels_of(std::index_sequence<Config...>) {
  return {kernel_pair{&cp_async_pipeline_kernel<Config, false>,
                      &cp_async_pipeline_kernel<Config, true>}...};
}
// The kernels of each configuration, and the dynamic shared memory they launch with.
constexpr std::array<kernel_pair, warp_tiled_configs> kernels =
    kernels_of(std::make_index_sequence<warp_tiled_configs>{});
product_kernel kernel_for(unsigned config, std::size_t n) {
  return kernels[config][rows_are_32_byte_aligned(n) ? 1 : 0];
}
template <std::size_t... Config>
constexpr std::array<unsigned, sizeof...(Config)> shared_bytes_of(std::index_sequence<Config...>) {
  return {pipeline<Config>::shared_bytes...};
}
constexpr std::array<unsigned, warp_tiled_configs> shared_bytes =
    shared_bytes_of(std::make_index_sequence<warp_tiled_configs>{});

// Lets each kernel launch with its dynamic shared memory (above 48 KB only with this), once a
// process, before its first launch or occupancy query.
void allow_shared_memory() {
  static const bool allowed = [] {
    for (unsigned config = 0; config < warp_tiled_configs; ++config)
      for (product_kernel kernel : kernels[config])
        CUDALAB_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(shared_bytes[config])));
    return true;
  }();
  static_cast<void>(allowed);
}

}  // namespace

launch_dims launch_cp_async_pipeline(const float* a, const float* b, float* c, std::size_t n,
                                     unsigned config, cudaStream_t stream) {
  const launch_dims d = block_tiled_dims(n, warp_tiled_tiling(config));
  allow_shared_memory();
  kernel_for(config, n)<<<d.grid, d.block, shared_bytes[config], stream>>>(
      a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

kernel_resources cp_async_pipeline_resources(unsigned config, std::size_t n) {
  const block_tiling& tiling = warp_tiled_tiling(config);
  allow_shared_memory();
  const std::string form = rows_are_32_byte_aligned(n) ? ", n % 8 == 0" : "";
  return query_kernel_resources(
      reinterpret_cast<const void*>(kernel_for(config, n)),
      "cp_async_pipeline_kernel (config " + std::to_string(config) + form + ")",
      static_cast<int>(tiling.threads), shared_bytes[config]);
}

}  // namespace cudalab::matmul
