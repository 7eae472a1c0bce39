// The arithmetic of lab 04's closed forms and the sweep they are checked over, shared by the
// float3 and the particle model tests (tests/model_test.cpp, tests/particle_model_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudalab::labs::closed_forms {

using u64 = std::uint64_t;

inline u64 ceil_div(u64 a, u64 b) { return (a + b - 1) / b; }

// Sectors covering the byte range [first, first + bytes).
inline u64 sectors_spanned(u64 first, u64 bytes) {
  return bytes == 0 ? 0 : (first + bytes - 1) / 32 - first / 32 + 1;
}

// Calls check(n, block) for every size of `sizes` launched with every block of `blocks`.
template <class Check>
void for_each_launch(const std::vector<std::size_t>& sizes, const std::vector<int>& blocks,
                     Check&& check) {
  for (std::size_t n : sizes)
    for (int block : blocks) check(n, block);
}

}  // namespace cudalab::labs::closed_forms
