// Every metric a lab collects (its default set, the DRAM bytes every default run adds, and
// what its grader asks for) configures on every chip the CUPTI host API lists, or is a
// catalogue metric recorded as missing there, so that a run on that chip shows
// `n/a (not on <chip>)` for it instead of failing. Offline: no GPU needed.
#include "cudalab/detail/cupti_host_config.hpp"
#include "cudalab/detail/profiler_backend.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace cudalab {
namespace {

std::set<std::string> metrics_of(const lab& l) {
  std::vector<std::string> v = l.default_metrics.empty() ? resolve_metrics("memory")
                                                         : resolve_metric_names(l.default_metrics);
  for (const auto& m : resolve_metrics("dram_read_bytes,dram_write_bytes")) v.push_back(m);
  if (l.exercise)
    for (const auto& m : resolve_metric_names(l.exercise->extra_metrics)) v.push_back(m);
  return {v.begin(), v.end()};
}

bool configures(const std::string& chip, const std::string& metric) {
  try {
    return detail::cupti_host_config(chip, {}, {metric}).passes() >= 1;
  } catch (const detail::cupti_error&) {
    return false;
  }
}

TEST(lab_metrics, every_lab_names_at_least_one_metric) {
  ASSERT_FALSE(all_labs().empty());
  for (const lab& l : all_labs()) EXPECT_FALSE(metrics_of(l).empty()) << l.id;
}

TEST(lab_metrics, each_configures_on_every_chip_or_is_recorded_as_missing_there) {
  const auto& no_profiler = chips_without_range_profiler();
  for (const auto& chip : detail::cupti_supported_chips()) {
    if (std::find(no_profiler.begin(), no_profiler.end(), chip) != no_profiler.end()) continue;
    for (const lab& l : all_labs())
      for (const auto& m : metrics_of(l)) {
        if (lacks_metric(chip, m)) continue;
        EXPECT_TRUE(configures(chip, m))
            << l.id << " collects " << m << ", which " << chip << " lacks"
            << (find_metric(m) ? ": add the chip to its missing_on in the catalogue"
                               : ": put the metric in the catalogue with the chip in missing_on");
      }
  }
}

}  // namespace
}  // namespace cudalab
