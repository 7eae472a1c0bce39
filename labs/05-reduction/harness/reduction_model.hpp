// Lab 05's access-model predictions: every kernel of kernels/reduction walked warp by warp
// with the kernels' own index functions (reduction_index.cuh).
//
// Shared-memory instructions are recorded as the SASS issues them (read with cuobjdump -sass
// on the release build): the trees' `if (tid < s)` bodies are predicated, so every warp
// issues every LDS/STS of every step and the ones whose lanes are all off count as
// instructions with 0 wavefronts; interleaved_divergent branches around a call, so a warp with
// no active lane issues nothing. The counts are what the hardware reports for
// smsp__inst_executed_op_shared_ld/_st (exact) and the l1tex shared wavefront/conflict
// counters (which read slightly above the model; see the GPU tests).
#pragma once

#include "cudalab/model/access_model.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::labs::reduction_model {

enum class kernel {
  interleaved_divergent,
  interleaved_strided,
  sequential,
  first_add,
  warp_shuffle,
  finish,       // one block of `block` threads folding n partial sums
  grid_stride,  // float4 / int4 loads, one atomicAdd a block
};

// Model addresses: separate cudaMalloc buffers, 256-byte aligned.
inline constexpr std::uint64_t in_base = 0;
inline constexpr std::uint64_t out_base = std::uint64_t{1} << 40;

// Blocks of one launch of `k` over n elements: one element a thread for the trees, two for
// first_add and warp_shuffle (they add a second while loading), one block for finish.
unsigned blocks_of(kernel k, std::size_t n, unsigned block);

// The counts of one launch of `k` over n 4-byte elements with `block` threads a block.
// Whole blocks are alike (same shared pattern; global addresses shifted by a multiple of
// 128 bytes), so one whole block is walked and scaled, and the partial last block is walked
// on its own. Throws cudalab::usage_error for a block size the kernels reject.
model::access_counts predict(kernel k, std::size_t n, unsigned block);
// The same by walking every warp of every block (for tests of the shortcut above).
model::access_counts predict_brute_force(kernel k, std::size_t n, unsigned block);

// A whole variant: the tree kernel plus the finishing pass over its partial sums.
model::access_counts predict_two_pass(kernel first, std::size_t n, unsigned block);

// An upper bound on the warp instructions a variant's prediction simulates (the access walks
// above and the instruction model's walks through the SASS, one unit a warp instruction):
// kernel `first` over n elements and, with `finish_on_gpu`, the finishing pass. The tree
// kernels walk two blocks whatever n is; the grid-stride kernel walks its bounded grid; the
// finishing pass grows with the partial sums it loops over.
double prediction_cost(kernel first, std::size_t n, unsigned block, bool finish_on_gpu);

}  // namespace cudalab::labs::reduction_model
