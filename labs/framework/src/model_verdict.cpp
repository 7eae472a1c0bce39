#include "cudalab/model_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace cudalab {

bool is_quotient(const metric_info& info) {
  const auto ends_with = [&](std::string_view suffix) {
    const std::string& name = info.cupti_name;
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".ratio") || ends_with(".pct");
}

std::vector<metric_check> compare_with_model(const result_row& row) {
  std::vector<metric_check> checks;
  if (!row.predicted || !row.counters.available) return checks;
  for (const auto& name : metrics_held_to_model()) {
    const metric_info* info = find_metric(name);
    if (info->exactness == metric_exactness::tolerance) continue;
    const auto meas = row.counters.get(name);
    const auto pred = info->model(*row.predicted);
    if (!meas || !pred) continue;
    metric_check k{name, *meas, *pred, info->exactness, true};
    if (is_quotient(*info)) {
      k.within = std::abs(*meas - *pred) <= 1e-6 * std::max(1.0, std::abs(*pred));
    } else {
      k.within = *meas == *pred;
    }
    checks.push_back(std::move(k));
  }
  return checks;
}

std::vector<std::string> model_mismatches(const result_row& row) {
  std::vector<std::string> names;
  for (const auto& k : compare_with_model(row))
    if (!k.within) names.push_back(k.metric);
  return names;
}

}  // namespace cudalab
