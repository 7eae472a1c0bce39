// Lab 08 launchers (register tiling): each checks the side, launches on `stream` and checks
// the launch (CUDALAB_CHECK_LAUNCH). All compute C = A B for n x n row-major floats held in
// buffers of matmul::padded_elements(n) floats (matmul_index.cuh), touching only the first
// n x n: the edges are handled in the kernels, for any n.
//
// Each kernel family also reports the resources its kernel was compiled to (registers, spills,
// shared memory) and how many of its blocks an SM holds (cudalab/kernel_resources.hpp).
#pragma once

#include "matmul/matmul_kernels.cuh"
#include "matmul/register_tiling_index.cuh"

#include "cudalab/kernel_resources.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

namespace cudalab::matmul {

// The tilings the lab builds (the kernels' template arguments).
inline constexpr block_tiling coarse_1d_tiling{64, 64, 8, 8, 1, 512, 1, false};
inline constexpr block_tiling register_2d_tiling{128, 128, 8, 8, 8, 256, 1, false};
inline constexpr block_tiling vectorized_tiling{128, 128, 8, 8, 8, 256, 4, true};
// The warp-tiled kernels' configurations (`--sweep config=0..6` of warp_tiled and
// cp_async_pipeline): a thread's tm x tn block, repeated over wm_iter x wn_iter sub-tiles of its
// warp's wm x wn tile. Configurations 0 and 2 give a thread 128 outputs (over 220 registers: two
// blocks of 4 warps, or one of 8, an SM); 1 and 4 spread the same 128 x 128 tile over 8 warps,
// 64 outputs and at most 128 registers a thread, so that two blocks of 8 warps fit. 3 and 5 are
// for small matrices: a 128 x 128 block tile leaves most of an H100's 132 SMs idle at n = 1024
// (64 blocks); 64 x 64 makes 256 blocks there, 64 x 128 makes 128 of 8 warps. 6 sits between 0
// and 4: 96 outputs a thread (12 rows of 8), at most 168 registers, so that three blocks of 4
// warps fit (12 warps an SM, against 8 at 128 outputs and 16 at 64), on 96 x 128 tiles.
inline constexpr unsigned warp_tiled_configs = 7;
inline constexpr block_tiling warp_tiled_tilings[warp_tiled_configs] = {
    {128, 128, 16, 8, 4, 128, 4, true, 64, 64, 4},  // 0: 4 warps of 64 x 64
    {128, 128, 8, 8, 4, 256, 4, true, 64, 32, 2},   // 1: 8 warps of 64 x 32, BK = 8
    {128, 256, 16, 8, 4, 256, 4, true, 64, 64, 4},  // 2: 8 warps of 64 x 64, a wider tile
    {64, 64, 16, 8, 4, 128, 4, true, 32, 32, 1},    // 3: 4 warps of 32 x 32, a small tile
    {128, 128, 16, 8, 4, 256, 4, true, 64, 32, 2},  // 4: 8 warps of 64 x 32, BK = 16
    {64, 128, 16, 8, 4, 256, 4, true, 32, 32, 1},   // 5: 8 warps of 32 x 32, a small tile
    {96, 128, 16, 12, 4, 128, 4, true, 96, 32, 2},  // 6: 4 warps of 96 x 32, 12 x 8 a thread
};
// Whether cp_async_pipeline stores configuration c's A tile without bank conflicts
// (pipeline_a_slot_row and the rest in register_tiling_index.cuh, which say what it costs):
// a trade, taken where the H200's sweeps of both layouts measured it faster (configurations 1
// and 4: labs/08-register-tiling/figures/pipeline-a-layouts-h200.csv; a test holds this list to
// that file).
inline constexpr bool pipeline_conflict_free_a[warp_tiled_configs] = {false, true,  false, false,
                                                                      true,  false, false};
// The configuration warp_tiled and cp_async_pipeline run when none is asked for.
inline constexpr unsigned warp_tiled_default_config = 0;

// The tiling of configuration `config`; throws usage_error past the last.
const block_tiling& warp_tiled_tiling(unsigned config);

// cp_async_tuned: the configuration of cp_async_pipeline chosen for side n by the sweeps
// committed as labs/08-register-tiling/figures/pipeline-configs-<card>.csv (scripts/bench.sh
// --sections 7 writes them): the fastest configuration at the swept side nearest n in ratio (at
// n = 520 that of 512, whose 64 x 64 tiles make 81 blocks where 5's would make 45).
// scripts/tests/test_tuned_configs.py holds this table to those files.
struct tuned_config {
  std::size_t side;  // a swept side
  unsigned config;   // the fastest configuration there
};
inline constexpr tuned_config tuned_pipeline_configs[] = {
    {256, 3}, {512, 3}, {1024, 5}, {2048, 4}, {4096, 4}, {8192, 6},
};
unsigned tuned_pipeline_config(std::size_t n);

// A block-tiled kernel's shape: `tiling.threads` threads (1D), ceil(n/bn) x ceil(n/bm) blocks.
launch_dims block_tiled_dims(std::size_t n, const block_tiling& tiling);
// pad_to_64's shapes: the padded product (32 x 8 threads, padded_side(n)/32 blocks a side) and
// a copy between n x n and padded_side(n) x padded_side(n) (32 x 8 threads, one element each).
launch_dims pad_product_dims(std::size_t n);
launch_dims pad_copy_dims(std::size_t side);

// NAIVE (the padding route): copy A and B into zero-padded padded_side(n)^2 buffers...
void launch_pad_inputs(const float* a, const float* b, float* a_padded, float* b_padded,
                       std::size_t n, cudaStream_t stream);
// ...multiply the padded matrices, four outputs a thread, no guards...
launch_dims launch_pad_product(const float* a_padded, const float* b_padded, float* c_padded,
                               std::size_t n, cudaStream_t stream);
// ...and copy the n x n result out of the padded one.
void launch_unpad_output(const float* c_padded, float* c, std::size_t n, cudaStream_t stream);

// FIXED: tm = 8 rows of C a thread from shared tiles (64 x 64 block tile, BK = 8).
launch_dims launch_coarse_1d(const float* a, const float* b, float* c, std::size_t n,
                             cudaStream_t stream);
// FIXED: an 8 x 8 block of C a thread (128 x 128 block tile, BK = 8, 256 threads).
launch_dims launch_register_2d(const float* a, const float* b, float* c, std::size_t n,
                               cudaStream_t stream);
// FIXED: register_2d with 16-byte global loads (4-byte ones when n % 4 != 0) and the A tile
// stored transposed, so that a thread reads A and B from shared memory 16 bytes at a time.
launch_dims launch_vectorized(const float* a, const float* b, float* c, std::size_t n,
                              cudaStream_t stream);
// FIXED: a warp-level tile between the block's and the thread's (warp_tiled_tilings[config]).
launch_dims launch_warp_tiled(const float* a, const float* b, float* c, std::size_t n,
                              unsigned config, cudaStream_t stream);
// FIXED: warp_tiled double-buffered: the next inner step's B tile copied by cp.async and its A
// tile loaded into registers while the warps compute the current step, one barrier a step; the
// blocks walked in groups of rows (pipeline_block_group) so that those resident together share
// tiles of A and B in L2.
launch_dims launch_cp_async_pipeline(const float* a, const float* b, float* c, std::size_t n,
                                     unsigned config, cudaStream_t stream);

// What each kernel was compiled to, and its blocks per SM at its launch shape, on the current
// device: the product kernel first.
std::vector<kernel_resources> pad_to_64_resources();
kernel_resources coarse_1d_resources();
kernel_resources register_2d_resources();
kernel_resources vectorized_resources();
kernel_resources warp_tiled_resources(unsigned config);
// The pipeline's kernel for side n: one a configuration for sides that are multiples of 8, one for
// the others (matmul_cp_async_pipeline.cu says why).
kernel_resources cp_async_pipeline_resources(unsigned config, std::size_t n);

}  // namespace cudalab::matmul
