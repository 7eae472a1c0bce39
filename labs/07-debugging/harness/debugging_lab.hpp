// Lab 07 as the tool registers it: the factory harness/lab.cpp defines.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>

namespace cudalab::labs {

// The default size, also the exercise's: no multiple of any block (the tail block runs), and
// 4,000,012 bytes of floats, whose last 2 MiB page leaves 194,292 bytes of slack for the tail
// block's overshoot (debugging/debugging_index.cuh).
inline constexpr std::size_t debugging_default_size = 1000003;

lab make_lab_07_debugging();

}  // namespace cudalab::labs
