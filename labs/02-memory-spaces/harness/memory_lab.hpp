// Lab 02 as the tool registers it: the factory harness/lab.cpp defines, and the figures the
// tests, the exercise and the solution share.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>

namespace cudalab::labs {

// 16M floats: 64 MB a buffer, large enough for copies to reach their steady bandwidth and for a
// kernel to take far longer than its launch. A multiple of 32, so every warp is full.
inline constexpr std::size_t memory_default_size = std::size_t{1} << 24;
// The largest size: 1 GiB a buffer.
inline constexpr std::size_t memory_max_size = std::size_t{1} << 28;
// Under compute-sanitizer: not a multiple of any block, so every guard runs, and quick.
inline constexpr std::size_t memory_sanitize_size = 100003;
// The spill kernels' permutation step (odd: spill_slot is then a permutation).
inline constexpr unsigned spill_step = 5;

lab make_lab_02_memory_spaces();

}  // namespace cudalab::labs
