// The model verdict: does a row's hardware count what the access model predicted?
//
// Each metric held to the model (metrics_held_to_model()) is judged by its exactness in the metric
// catalogue (metrics.hpp):
//   exact, per-binary  counts must be equal; ratios of such counts (.ratio, .pct) equal to
//                      floating-point precision. Shared-memory wavefronts and conflicts are
//                      exact: the catalogue reads them at the SASS level (docs/counters.md).
//   tolerance          never compared (caches, timing, the shared data stage's excess)
// A failed comparison is a MISMATCH and sets `cudalab run`'s exit code.
#pragma once

#include "cudalab/metrics.hpp"
#include "cudalab/result_row.hpp"

#include <string>
#include <vector>

namespace cudalab {

// A .ratio or .pct metric: a quotient of counts, computed in floating point on both sides.
bool is_quotient(const metric_info& info);

// One comparison of a measured counter with the model.
struct metric_check {
  std::string metric;  // short name
  double measured = 0;
  double predicted = 0;
  metric_exactness exactness = metric_exactness::exact;
  bool within = true;  // equal (to floating-point precision for a quotient)
};

// Every compared metric that the row both measured and predicted.
std::vector<metric_check> compare_with_model(const result_row& row);
// Short names of the compared metrics where the hardware disagrees with the model.
std::vector<std::string> model_mismatches(const result_row& row);

}  // namespace cudalab
