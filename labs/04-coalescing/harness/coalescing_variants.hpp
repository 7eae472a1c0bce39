// Lab 04's prepared variants, by kind (float3_variants.cpp and pattern_variants.cpp); lab.cpp
// assembles them into variants.
#pragma once

#include "coalescing_lab.hpp"

#include <memory>

namespace cudalab::labs {

// aos_float4 and soa (float3_variants.cpp).
std::unique_ptr<prepared_variant> prepare_float3_layout(coalescing_kind kind,
                                                        const launch_config& c);
// char_per_thread, uchar4_packed, offset and stride (pattern_variants.cpp).
std::unique_ptr<prepared_variant> prepare_pattern(coalescing_kind kind, const launch_config& c);

}  // namespace cudalab::labs
