// Lab 01's variants, exposed for its tests.
#pragma once

#include "cudalab/lab.hpp"

#include <cstdint>
#include <string>

namespace cudalab::labs {

enum class indexing_kind {
  overlaunch,
  underlaunch,
  ceil_div,
  unguarded,
  grid_stride,
  int_index,
  int64_index,
  x_rows,
  x_cols
};

// The access model's counts for one variant, walking the launch with the kernels' index functions.
// Whole blocks repeat, and whole grid-stride steps too: it walks one block of each repeating
// class and the edges (cudalab/model/block_classes.hpp).
model::access_counts predict_indexing(indexing_kind k, const launch_config& c);

// What the int-indexed kernel's threads do past element 2^31, from the same index function:
// how many compute a negative index, and the lowest one (0 and 0 when none wraps).
struct index_wraps {
  std::uint64_t threads = 0;
  std::int64_t lowest_index = 0;
};
index_wraps predict_index_wraps(const launch_config& c);

// The same by walking every block and every step: the reference for the shortcut's tests.
model::access_counts predict_indexing_every_block(indexing_kind k, const launch_config& c);
// An upper bound on the warp instructions predict_indexing simulates for `c` (its cost, for
// the model budget).
double indexing_model_cost(indexing_kind k, const launch_config& c);
variant make_indexing_variant(indexing_kind k, std::string name, variant_role role,
                              std::string lesson);
lab make_lab_01_thread_indexing();

}  // namespace cudalab::labs
