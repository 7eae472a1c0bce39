// Index arithmetic of lab 02, shared by the kernels (device) and the access model (host).
//
// Every kernel of kernels/memory computes its addresses with these functions, and the lab's
// predictions (labs/02-memory-spaces/harness/memory_model.cpp) call the same functions for every
// lane of every warp, so the model cannot drift from the code it predicts.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cudalab::memory {

// The polynomial every coefficient kernel evaluates: poly_terms coefficients, Horner's rule.
inline constexpr unsigned poly_terms = 16;
// constant_divergent gives each of a warp's 32 lanes a coefficient set of its own: the constant
// table holds this many sets of poly_terms floats (2 KB of the 64 KB constant bank).
inline constexpr unsigned coefficient_sets = 32;
inline constexpr unsigned constant_table_floats = coefficient_sets * poly_terms;

// The element of a thread in a 1D launch.
__host__ __device__ inline std::size_t element_index(std::size_t block, unsigned block_threads,
                                                     unsigned thread) {
  return block * block_threads + thread;
}

// The coefficient set element i uses: 0 for every element (one polynomial), or i mod 32 for
// constant_divergent (32 polynomials; the lanes of a warp each read a different set).
__host__ __device__ inline unsigned coefficient_set(std::size_t i, bool one_set_a_lane) {
  return one_set_a_lane ? static_cast<unsigned>(i % coefficient_sets) : 0u;
}

// Coefficient k of set s in the table (set-major: a set's coefficients are consecutive).
__host__ __device__ inline unsigned coefficient_index(unsigned set, unsigned k) {
  return set * poly_terms + k;
}

// ---- Local memory ----------------------------------------------------------------------------

// The per-thread array of local_spill: spill_words floats, written in a run-time order.
inline constexpr unsigned spill_words = 16;

// Where step k writes its value: (k * step) mod 16. For an odd step this is a permutation of the
// array's words, known only at run time, so the compiler cannot give the words registers.
__host__ __device__ inline unsigned spill_slot(unsigned k, unsigned step) {
  return (k * step) & (spill_words - 1);
}

// The value step k writes: x (k + 1) + 1.
__host__ __device__ inline float spill_value(float x, unsigned k) {
  return x * static_cast<float>(k + 1) + 1.0f;
}

// The interleaved layout the hardware gives local memory (docs/metrics.md): word w of lane l of
// a warp sits at warp_base + (w * 32 + l) * 4. A warp whose lanes all touch their own word w
// reads 128 consecutive bytes: one request, 4 sectors, like a coalesced global load.
__host__ __device__ inline std::uint64_t local_word_address(std::uint64_t warp_base, unsigned word,
                                                            unsigned lane) {
  return warp_base + (std::uint64_t{word} * 32 + lane) * 4;
}

}  // namespace cudalab::memory
