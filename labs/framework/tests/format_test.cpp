// Output formats: the table marks model mismatches, CSV and JSON carry every field.
#include "cudalab/check.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace cudalab {
namespace {

result_row sample_row(double measured_ld_sectors) {
  result_row row;
  row.lab_id = "04-coalescing";
  row.variant_name = "aos_float3";
  row.role = variant_role::naive;
  row.config = {1 << 20, 256, 0};
  row.measured = true;
  row.time = {0.5, 0.4, 0.6, 20};
  row.ideal = {12.0 * (1 << 20), 0};
  row.gbps = 25.2;
  row.check = {true, "exact"};
  model::access_counts p;
  p.global_ld_requests = 98304;
  p.global_ld_sectors = 1179648;
  p.global_ld_bytes = 98304u * 128u;
  row.predicted = p;
  row.counters.available = true;
  row.counters.totals[find_metric("ld_requests")->cupti_name] = 98304;
  row.counters.totals[find_metric("ld_sectors")->cupti_name] = measured_ld_sectors;
  return row;
}

TEST(report_format, parses_known_formats_and_rejects_others) {
  EXPECT_EQ(parse_output_format("csv"), output_format::csv);
  EXPECT_THROW(parse_output_format("xml"), usage_error);
}

TEST(report_model, equal_counts_are_within_the_model) {
  EXPECT_TRUE(model_mismatches(sample_row(1179648)).empty());
}

TEST(report_model, one_sector_off_is_a_mismatch_on_an_exact_metric) {
  EXPECT_EQ(model_mismatches(sample_row(1179649)), std::vector<std::string>{"ld_sectors"});
}

TEST(report_model, shared_counts_use_the_band_above_the_model) {
  result_row row = sample_row(1179648);
  row.predicted->shared_ld_wavefronts = 100000;
  row.predicted->shared_ld_conflicts = 0;
  row.counters.totals[find_metric("shared_ld_wavefronts")->cupti_name] = 101000;  // +1 %
  row.counters.totals[find_metric("shared_ld_conflicts")->cupti_name] = 1500;
  EXPECT_TRUE(model_mismatches(row).empty());
  row.counters.totals[find_metric("shared_ld_conflicts")->cupti_name] = 15000;  // +15 %
  EXPECT_TRUE(model_mismatches(row).empty()) << "a banded metric is not an exact mismatch";
  EXPECT_EQ(band_outliers(row), std::vector<std::string>{"shared_ld_conflicts"});
  row.counters.totals[find_metric("shared_ld_wavefronts")->cupti_name] = 99999;  // below model
  EXPECT_EQ(band_outliers(row).front(), "shared_ld_wavefronts");
}

TEST(report_table, shows_measured_beside_predicted_and_flags_mismatch) {
  std::ostringstream out;
  write_report(out, {sample_row(1179650)}, output_format::table, {"H100", 3000, ""});
  const std::string text = out.str();
  EXPECT_NE(text.find("1,179,650 !"), std::string::npos) << text;
  EXPECT_NE(text.find("1,179,648"), std::string::npos) << text;
  EXPECT_NE(text.find("MISMATCH: ld_sectors"), std::string::npos) << text;
}

TEST(report_csv, has_a_header_and_sectors_per_request) {
  std::ostringstream out;
  write_report(out, {sample_row(1179648)}, output_format::csv, {});
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("lab,variant,role,sweep,param,size,block", 0), 0u) << text;
  EXPECT_NE(text.find(",12.0000,12.0000,"), std::string::npos) << text;
}

TEST(report_json, is_an_object_with_rows) {
  std::ostringstream out;
  write_report(out, {sample_row(1179648)}, output_format::json, {"H100", 3000, ""});
  const std::string text = out.str();
  EXPECT_NE(text.find("\"rows\": ["), std::string::npos);
  EXPECT_NE(text.find("\"ld_sectors_measured\": 1179648"), std::string::npos) << text;
  EXPECT_NE(text.find("\"model_mismatch\": \"\""), std::string::npos) << text;
}

}  // namespace
}  // namespace cudalab
