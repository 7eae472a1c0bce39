// The model verdict: exact metrics must be equal (shared memory too, through the SASS-level
// counters), tolerance metrics are never judged; the rule for each comes from the catalogue.
#include "sample_rows.hpp"

#include "cudalab/model_verdict.hpp"

#include <gtest/gtest.h>

namespace cudalab {
namespace {

using report_samples::aos_float3_row;
using report_samples::set_counter;

TEST(model_verdict, equal_counts_agree_with_the_model) {
  EXPECT_TRUE(model_mismatches(aos_float3_row(1179648)).empty());
}

TEST(model_verdict, one_sector_off_is_a_mismatch_on_an_exact_metric) {
  EXPECT_EQ(model_mismatches(aos_float3_row(1179649)), std::vector<std::string>{"ld_sectors"});
}

// The data stage counted 25% more wavefronts than the SASS-level counters and called them all
// conflicts: the derived conflicts are still 0, and nothing of the data stage is judged. One
// wavefront more at the SASS level is a mismatch of the wavefronts and of the conflicts.
TEST(model_verdict, shared_counts_are_exact_and_the_data_stage_is_never_judged) {
  result_row row = aos_float3_row(1179648);
  row.predicted->shared_ld_wavefronts = 100000;
  row.predicted->shared_ld_conflicts = 0;
  set_counter(row, "shared_ld_wavefronts", 100000);
  set_counter(row, "pipe_ld_wavefronts", 125000);
  set_counter(row, "pipe_ld_conflicts", 25000);
  EXPECT_EQ(row.counters.get("shared_ld_conflicts"), 0.0);
  EXPECT_TRUE(model_mismatches(row).empty());
  set_counter(row, "shared_ld_wavefronts", 100001);
  EXPECT_EQ(row.counters.get("shared_ld_conflicts"), 1.0);
  EXPECT_EQ(model_mismatches(row),
            (std::vector<std::string>{"shared_ld_wavefronts", "shared_ld_conflicts"}));
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
