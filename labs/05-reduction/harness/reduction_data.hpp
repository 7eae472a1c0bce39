// Lab 05 host data: inputs, the CPU reference sums and the verification rules.
//
// Inputs are counter-based pseudo-random (a hash of seed and index, so any size is fast to
// make and the same every run) and never zero: floats uniform in [0.5, 1.5) on a 2^-24 grid,
// integers in 1..7 (2^28 of them sum below 2^31).
//
// Tolerances, and why:
//  - Per block, float partial sums are compared with double sums of the same elements at a
//    relative 1e-5. A block folds at most 2048 elements in at most 12 rounding steps of
//    2^-24 (6e-8) each, so a correct kernel stays below 1e-6; one lost or doubled element
//    moves a block sum by at least 0.5 / (1.5 * 2048) = 1.6e-4. This is the check that
//    catches indexing bugs.
//  - The total is compared at a relative 1e-5 * log2(n). Rounding grows with the depth of the
//    summation tree (log2 n levels); the grid-stride loops and atomic chains add sequential
//    depth whose rounding errors, random in sign, grow like its square root. The margin is
//    generous on purpose: at large n a single lost element is below any float tolerance, so
//    the total check guards against gross errors and the per-block and integer checks
//    (exact) guard the indexing.
//  - Integers are compared exactly.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudalab::labs::reduction_data {

std::vector<float> make_floats(std::size_t n, std::uint64_t seed = 0x05);
std::vector<int> make_ints(std::size_t n, std::uint64_t seed = 0x05);

// Sum in double (floats) or 64-bit integers, of elements [first, first + count).
double reference_sum(const std::vector<float>& v, std::size_t first = 0,
                     std::size_t count = ~std::size_t{0});
std::int64_t reference_sum(const std::vector<int>& v, std::size_t first = 0,
                           std::size_t count = ~std::size_t{0});

inline constexpr double block_rel_tol = 1e-5;
double total_rel_tol(std::size_t n);

// Block b's partial sum covers elements [b * per_block, (b + 1) * per_block) of n.
verify_result verify_partials(const std::vector<float>& in, const std::vector<float>& partial,
                              std::size_t per_block);
verify_result verify_partials(const std::vector<int>& in, const std::vector<int>& partial,
                              std::size_t per_block);
verify_result verify_total(const std::vector<float>& in, double got);
verify_result verify_total(const std::vector<int>& in, std::int64_t got);

}  // namespace cudalab::labs::reduction_data
