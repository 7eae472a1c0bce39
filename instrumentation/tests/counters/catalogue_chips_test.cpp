// The catalogue on every chip the CUPTI host API lists, offline: each metric configures there,
// or the catalogue names the chip as lacking it (and a run there shows `n/a (not on <chip>)`),
// or the chip is named as one whose Range Profiler does not start. A new CUPTI that adds a
// chip, or drops a metric from one, fails here on any machine, before a learner meets it.
#include "cudalab/detail/cupti_host_config.hpp"
#include "cudalab/detail/profiler_backend.hpp"
#include "cudalab/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace cudalab::detail {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool has_range_profiler(const std::string& chip) {
  return !contains(chips_without_range_profiler(), chip);
}

bool configures(const std::string& chip, const std::vector<std::string>& metrics) {
  try {
    cupti_host_config config(chip, {}, metrics);
    return config.passes() >= 1;
  } catch (const cupti_error& e) {
    EXPECT_EQ(e.code(), CUPTI_ERROR_INVALID_PARAMETER) << chip << ": " << e.what();
    return false;
  }
}

TEST(catalogue_chips, cupti_lists_the_h100_and_more_chips) {
  const auto chips = cupti_supported_chips();
  EXPECT_TRUE(contains(chips, "GH100"));
  EXPECT_GT(chips.size(), 1u);
}

TEST(catalogue_chips, each_metric_configures_on_every_chip_unless_recorded_as_missing) {
  for (const auto& chip : cupti_supported_chips()) {
    if (!has_range_profiler(chip)) continue;
    for (const auto& m : metric_catalogue()) {
      if (m.derived()) continue;  // its terms are catalogue metrics, checked on their own
      const bool recorded_missing = lacks_metric(chip, m.cupti_name);
      EXPECT_EQ(configures(chip, {m.cupti_name}), !recorded_missing)
          << m.short_name << " (" << m.cupti_name << ") on " << chip
          << (recorded_missing ? ": recorded as missing, but CUPTI configures it"
                               : ": CUPTI refuses it; add the chip to its missing_on");
    }
  }
}

TEST(catalogue_chips, every_set_less_its_missing_metrics_configures_on_every_chip) {
  for (const auto& chip : cupti_supported_chips()) {
    if (!has_range_profiler(chip)) continue;
    for (const auto& set : metric_set_names()) {
      std::vector<std::string> metrics = resolve_metrics(set);
      metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                                   [&](const std::string& m) { return lacks_metric(chip, m); }),
                    metrics.end());
      EXPECT_TRUE(configures(chip, metrics)) << set << " on " << chip;
    }
  }
}

TEST(catalogue_chips, a_chip_without_the_range_profiler_refuses_to_initialize) {
  for (const auto& chip : chips_without_range_profiler()) {
    try {
      cupti_host_config config(chip, {}, {"smsp__inst_executed.sum"});
      ADD_FAILURE() << chip << " is recorded without a Range Profiler, but CUPTI configures it";
    } catch (const cupti_error& e) {
      EXPECT_EQ(e.code(), CUPTI_ERROR_NOT_SUPPORTED) << chip;
      EXPECT_EQ(e.call(), "cuptiProfilerHostInitialize") << chip;
    }
  }
}

TEST(catalogue_chips, every_recorded_chip_is_one_cupti_lists) {
  const auto chips = cupti_supported_chips();
  for (const auto& chip : chips_without_range_profiler())
    EXPECT_TRUE(contains(chips, chip)) << chip;
  for (const auto& m : metric_catalogue())
    for (const auto& chip : m.missing_on)
      EXPECT_TRUE(contains(chips, chip)) << m.short_name << " " << chip;
}

TEST(catalogue_chips, lacks_metric_takes_short_and_cupti_names) {
  EXPECT_TRUE(lacks_metric("GB202", "dram_read_bytes"));
  EXPECT_TRUE(lacks_metric("GB202", "dram__bytes_write.sum"));
  EXPECT_FALSE(lacks_metric("GH100", "dram_read_bytes"));
  EXPECT_FALSE(lacks_metric("GB202", "ld_sectors"));
  EXPECT_FALSE(lacks_metric("GB202", "sm__ctas_launched.sum"));  // not in the catalogue
}

}  // namespace
}  // namespace cudalab::detail
