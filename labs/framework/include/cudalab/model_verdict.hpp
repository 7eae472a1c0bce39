// The model verdict: does a row's hardware count what the access model predicted?
//
// Each compared metric is judged by its exactness in the metric catalogue (metrics.hpp):
//   exact, per-binary  counts must be equal; ratios of such counts (.ratio, .pct) equal to
//                      floating-point precision
//   banded             shared-memory wavefronts and conflicts: model <= hw <= model + band
//   tolerance          never compared (caches, timing)
// A failed exact comparison is a MISMATCH and sets `cudalab run`'s exit code; a banded metric
// outside its band is reported, not failed.
#pragma once

#include "cudalab/metrics.hpp"
#include "cudalab/runner.hpp"

#include <string>
#include <vector>

namespace cudalab {

// The band above the model that banded metrics may reach, as a fraction of the model's
// wavefronts (plus 2 for rounding at tiny sizes). docs/metrics.md gives the figures this
// kit's kernels measured on an H100.
inline constexpr double shared_band_fraction = 0.12;

// The short names of the metrics the model is meant to predict and that are compared, in
// display order. Other predicted figures (LDS instruction counts, bytes per sector) follow
// from these or count something the hardware counts differently (predicated-off LDS), so
// they are shown but never judged.
const std::vector<std::string>& compared_metrics();

// A .ratio or .pct metric: a quotient of counts, computed in floating point on both sides.
bool is_quotient(const metric_info& info);

// One comparison of a measured counter with the model.
struct metric_check {
  std::string metric;  // short name
  double measured = 0;
  double predicted = 0;
  metric_exactness exactness = metric_exactness::exact;
  bool within = true;  // equal, or inside the band for banded metrics
};

// Every compared metric that the row both measured and predicted.
std::vector<metric_check> compare_with_model(const result_row& row);
// Short names of the exact and per-binary metrics where the hardware disagrees with the model.
std::vector<std::string> model_mismatches(const result_row& row);
// Short names of the banded (shared-memory) metrics outside their band above the model.
std::vector<std::string> band_outliers(const result_row& row);

}  // namespace cudalab
