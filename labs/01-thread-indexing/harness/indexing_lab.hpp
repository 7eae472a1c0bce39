// Lab 01's variants, exposed for its tests.
#pragma once

#include "cudalab/lab.hpp"

#include <string>

namespace cudalab::labs {

enum class indexing_kind { overlaunch, ceil_div, unguarded, grid_stride, x_rows, x_cols };

// The access model's counts for one variant, walking the launch with the kernels' index functions.
model::access_counts predict_indexing(indexing_kind k, const launch_config& c);
variant make_indexing_variant(indexing_kind k, std::string name, variant_role role, std::string lesson);
lab make_lab_01_thread_indexing();

}  // namespace cudalab::labs
