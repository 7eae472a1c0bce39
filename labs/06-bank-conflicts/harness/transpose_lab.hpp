// Lab 06 as the tool registers it: the factory harness/lab.cpp defines.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>

namespace cudalab::labs {

// The default side, also the exercise's: odd, so no tile divides it (the edge blocks and their
// guards always run) and rows start off 32-byte boundaries (the model is held to unaligned rows).
inline constexpr std::size_t transpose_default_side = 1001;

lab make_lab_06_bank_conflicts();

}  // namespace cudalab::labs
