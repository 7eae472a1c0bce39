// Lab 08's access model: the global and shared accesses of every register-tiled product
// kernel, walked warp by warp with the kernels' own index functions
// (kernels/matmul/register_tiling_index.cuh).
//
// As in lab 03, whole blocks repeat (cudalab/model/block_classes.hpp) and so do whole steps
// of the inner loop (a step moves A by 4 BK bytes and B by 4 BK n), so the prediction walks one
// block and one step of each class plus the edges: a few thousand warp instructions at any n.
//
// Shared loads are counted as the compiler emits them (checked with cuobjdump -sass; the lab's
// README shows how): a 16-byte LDS.128 is one instruction, served by half-warps as measured
// (docs/counters.md; model/access_model.cpp). Every shared load of these kernels has all 32 lanes
// on, so the counts are also what smsp__inst_executed_op_shared_ld counts: exact. The one
// exception is cp_async_pipeline's: the compiler puts three LDS predicated off for every thread
// (`@!PT LDS RZ, [RZ]`) before each LDGSTS, which that counter counts too; its prediction adds
// them (predicated_off_lds_per_ldgsts), so that it is still the counter's count.
//
// cp_async_pipeline loads A as warp_tiled does (LDG, then STS), in its own slots and into its
// padded tile (pipeline_a_slot_row, pipeline_a_word: no store conflict), and copies B by cp.async
// (LDGSTS), 16 bytes a copy only when n % 8 == 0 (rows_are_32_byte_aligned, which says why),
// else 4. Its copies are global loads to the L1's counters (ld_requests, ld_sectors;
// docs/metrics.md, ldgsts_bytes), counted like a load by the sectors their lanes touch; their
// writes to shared memory are counted under LDGSTS, apart from STS, so its B stores are only the
// zeros of a slot past the matrix.
#pragma once

#include "cudalab/model/access_model.hpp"
#include "cudalab/model/block_classes.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::matmul {
struct block_tiling;
}

namespace cudalab::labs::regtile_model {

enum class kernel {
  pad_product,      // the padded product alone (pad_to_64)
  pad_with_copies,  // padding copies of A and B, the padded product, the copy of C out
  coarse_1d,
  register_2d,
  vectorized,
  warp_tiled,
  cp_async_pipeline,  // warp_tiled double-buffered, in any of its configurations
};
// Buffers 0 to 2 are A, B and C, 3 to 5 pad_to_64's padded copies.
using model::buffer_base;
using model::walk;

// The LDS that the compiler (CUDA 13.0, sm_90) puts before every LDGSTS, predicated off for
// every thread. In the pipeline's kernel for any side the LDGSTS and its three sit behind a
// branch that a warp with no copying lane skips, so a warp runs them once for each LDGSTS it
// issues with an active lane, that is once for each of its cp.async load requests. In its kernel
// for sides that are multiples of 8 (only 16-byte copies) every LDGSTS is predicated instead, and
// a warp runs the three before each of its copies, copying lane or not (cuobjdump -sass of both:
// matmul_cp_async_pipeline.cu).
inline constexpr std::uint64_t predicated_off_lds_per_ldgsts = 3;

// The tiling of a block-tiled kernel (coarse_1d to cp_async_pipeline; `config` is warp_tiled's
// and cp_async_pipeline's). The pipeline's blocks take their tiles in another order
// (grouped_tile), one to one, so its counts are those of the plain order that the model walks.
const matmul::block_tiling& tiling_of(kernel k, unsigned config = 0);

// The counts of one launch (all of its kernels) for side n; `config` is warp_tiled's and
// cp_async_pipeline's.
model::access_counts predict(kernel k, std::size_t n, unsigned config = 0,
                             walk how = walk::block_classes);

// Shared-memory load instructions a warp issues per inner step (BK columns), from the tiling:
// what the counts above are made of, for the lesson and the tests (the reads of the tiles:
// cp_async_pipeline's predicated-off LDS are not among them).
std::uint64_t shared_loads_per_warp_step(kernel k, unsigned config = 0);

// The threads a block kernel `k` launches, whatever --block says: its tiling's (pad_to_64 and
// its copies: 32 x 8).
unsigned threads_per_block(kernel k, unsigned config = 0);

// The warp instructions predict() simulates (the model budget's measure).
double prediction_cost(kernel k, std::size_t n, unsigned config = 0);

}  // namespace cudalab::labs::regtile_model
