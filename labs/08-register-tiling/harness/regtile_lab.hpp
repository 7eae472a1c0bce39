// Lab 08 as the tool registers it: the factory harness/lab.cpp defines.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>

namespace cudalab::labs {

// The default side: odd, so it is a multiple of no tile and rows start off 16-byte boundaries
// (the kernels take their 4-byte load path and the edge guards matter); large enough that the
// product, not the launch, sets the time.
inline constexpr std::size_t regtile_default_side = 2001;

lab make_lab_08_register_tiling();

}  // namespace cudalab::labs
