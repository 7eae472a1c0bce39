// Lab 02's access model: the global, shared and local accesses of the coefficient and spill
// kernels, walked warp by warp with the kernels' own index functions
// (kernels/memory/memory_index.cuh), and the constant cache's passes for constant_divergent.
//
// The instructions are the ones the release build emits (cuobjdump -sass, quoted in the lab's
// README): coeffs_global 1 + 16 LDG and 1 STG a warp; coeffs_constant 1 LDG and 1 STG (the
// coefficients are FFMA operands); constant_divergent the same plus 8 LDC.64 (the compiler pairs
// the 16 coefficients); coeffs_shared 1 LDG (lanes 0-15 of warp 0) and 1 STS a block, 1 LDG,
// 4 LDS.128 and 1 STG a warp; local_spill 1 LDG, 16 STL, 4 LDL.128, 1 STG; registers 1 LDG,
// 1 STG.
//
// A warp's counts depend only on its first element modulo 32, how many lanes are active and
// whether it is its block's first warp, so the prediction folds each such class once and
// multiplies: linear in the number of warps to classify, a few hundred warps simulated.
#pragma once

#include "cudalab/model/access_model.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::labs::memory_model {

enum class kernel {
  coeffs_global,
  coeffs_constant,
  constant_divergent,
  coeffs_shared,
  local_spill,
  registers
};
enum class walk { warp_classes, every_warp };

// Model base addresses of x, out and the coefficients: cudaMalloc returns 256-byte aligned memory;
// separate allocations are modelled 2^40 bytes apart so that no two buffers share a sector.
inline std::uint64_t buffer_base(unsigned buffer) { return std::uint64_t{buffer} << 40; }

// The global, shared and local counts of one launch of n elements with `block` threads a block;
// `step` is the spill kernels' permutation step. `every_warp` simulates every warp: the
// reference the tests hold the shortcut to (small n only).
model::access_counts predict(kernel k, std::size_t n, unsigned block, unsigned step,
                             walk how = walk::warp_classes);

// The indexed constant cache for one launch: what the coefficient LDC instructions ask of it.
struct constant_counts {
  std::uint64_t ldc_instructions = 0;        // coefficient LDC warp instructions
  std::uint64_t divergent_instructions = 0;  // of those, the ones with more than one address
  std::uint64_t replays = 0;                 // passes beyond the first: distinct addresses - 1
};
// Zero for every kernel but constant_divergent (the others issue no coefficient LDC).
constant_counts predict_constant(kernel k, std::size_t n, unsigned block);

// The number of distinct addresses the active lanes of one constant_divergent LDC ask for, for a
// warp whose first element is `first` and whose `active` lanes are consecutive elements.
unsigned distinct_constant_addresses(std::size_t first, unsigned active);

}  // namespace cudalab::labs::memory_model
