// The model verdict: exact metrics must be equal, banded ones inside the band above the model,
// tolerance metrics are never judged; the rule for each comes from the metric catalogue.
#include "sample_rows.hpp"

#include "cudalab/model_verdict.hpp"

#include <gtest/gtest.h>

namespace cudalab {
namespace {

using report_samples::aos_float3_row;
using report_samples::set_counter;

TEST(model_verdict, equal_counts_agree_with_the_model) {
  EXPECT_TRUE(model_mismatches(aos_float3_row(1179648)).empty());
  EXPECT_TRUE(band_outliers(aos_float3_row(1179648)).empty());
}

TEST(model_verdict, one_sector_off_is_a_mismatch_on_an_exact_metric) {
  EXPECT_EQ(model_mismatches(aos_float3_row(1179649)), std::vector<std::string>{"ld_sectors"});
}

TEST(model_verdict, shared_counts_use_the_band_above_the_model) {
  result_row row = aos_float3_row(1179648);
  row.predicted->shared_ld_wavefronts = 100000;
  row.predicted->shared_ld_conflicts = 0;
  set_counter(row, "shared_ld_wavefronts", 101000);  // +1 %
  set_counter(row, "shared_ld_conflicts", 1500);
  EXPECT_TRUE(model_mismatches(row).empty());
  EXPECT_TRUE(band_outliers(row).empty());
  set_counter(row, "shared_ld_conflicts", 100000 * shared_band_fraction + 3);  // past the band
  EXPECT_TRUE(model_mismatches(row).empty()) << "a banded metric is not an exact mismatch";
  EXPECT_EQ(band_outliers(row), std::vector<std::string>{"shared_ld_conflicts"});
  set_counter(row, "shared_ld_wavefronts", 99999);  // below the model
  EXPECT_EQ(band_outliers(row).front(), "shared_ld_wavefronts");
}

TEST(model_verdict, each_comparison_takes_its_exactness_from_the_catalogue) {
  result_row row = aos_float3_row(1179648);
  row.predicted->shared_ld_wavefronts = 1000;
  set_counter(row, "shared_ld_wavefronts", 1000);
  const auto checks = compare_with_model(row);
  ASSERT_EQ(checks.size(), 3u);
  for (const auto& k : checks) EXPECT_EQ(k.exactness, find_metric(k.metric)->exactness) << k.metric;
}

TEST(model_verdict, a_per_binary_ratio_agrees_to_floating_point_precision_only) {
  result_row row = aos_float3_row(1179648);
  model::sass::instruction_counts counts;
  counts.warp_instructions = 2655;
  counts.thread_instructions = 63224;
  row.predicted->instructions = counts;
  const double predicted = counts.threads_per_instruction();
  set_counter(row, "thread_efficiency", predicted * (1 + 1e-9));
  EXPECT_TRUE(model_mismatches(row).empty());
  set_counter(row, "thread_efficiency", predicted * (1 + 1e-4));
  EXPECT_EQ(model_mismatches(row), std::vector<std::string>{"thread_efficiency"});
}

TEST(model_verdict, tolerance_metrics_are_never_judged) {
  result_row row = aos_float3_row(1179648);
  set_counter(row, "dram_read_bytes", 1e12);
  for (const auto& k : compare_with_model(row)) EXPECT_NE(k.metric, "dram_read_bytes");
  EXPECT_TRUE(model_mismatches(row).empty());
}

TEST(model_verdict, nothing_is_judged_without_counters) {
  result_row row = aos_float3_row(1179650);
  row.counters.available = false;
  EXPECT_TRUE(compare_with_model(row).empty());
}

}  // namespace
}  // namespace cudalab
