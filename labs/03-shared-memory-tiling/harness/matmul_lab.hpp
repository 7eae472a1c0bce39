// Lab 03 as the tool registers it: the factory harness/lab.cpp defines.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>

namespace cudalab::labs {

// The default side, also the exercise's: odd, so it is a multiple of no tile (the guards
// matter) and rows start off 32-byte boundaries (the model is held to unaligned rows).
inline constexpr std::size_t matmul_default_side = 1001;
// Under compute-sanitizer: a multiple of no tile, so every edge guard runs, and small enough
// that the double-precision check of each run takes milliseconds, not seconds.
inline constexpr std::size_t matmul_sanitize_side = 77;

lab make_lab_03_shared_memory_tiling();

}  // namespace cudalab::labs
