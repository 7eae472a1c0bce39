// The file formats: CSV and JSON carry every field under the names plots read, JSON is valid
// whatever the strings hold (parsed back here with nlohmann-json), and the format and view
// names a learner types are checked.
#include "sample_rows.hpp"

#include "cudalab/check.hpp"
#include "cudalab/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace cudalab {
namespace {

using report_samples::aos_float3_row;
using report_samples::predicted_only;

std::string write(const std::vector<result_row>& rows, output_format format,
                  const report_context& context = {}) {
  report_options options;
  options.format = format;
  return report_samples::written_report(rows, options, context);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  return fields;
}

TEST(report_options, parses_known_formats_and_views_and_rejects_others) {
  EXPECT_EQ(parse_output_format("csv"), output_format::csv);
  EXPECT_THROW(parse_output_format("xml"), usage_error);
  EXPECT_EQ(parse_report_view("default"), report_view::standard);
  EXPECT_EQ(parse_report_view("full"), report_view::full);
  EXPECT_THROW(parse_report_view("wide"), usage_error);
}

TEST(report_csv, has_a_header_and_sectors_per_request) {
  const std::string text = write({aos_float3_row(1179648)}, output_format::csv);
  EXPECT_EQ(text.rfind("lab,variant,role,sweep,param,size,block", 0), 0u) << text;
  EXPECT_NE(text.find(",12.0000,12.0000,"), std::string::npos) << text;
}

TEST(report_csv, keeps_the_field_names_plots_read_and_adds_new_ones_at_the_end) {
  const std::string text = write({aos_float3_row(1179648)}, output_format::csv);
  const auto header = split(text.substr(0, text.find('\n')));
  const std::vector<std::string> leading{"lab",
                                         "variant",
                                         "role",
                                         "sweep",
                                         "param",
                                         "size",
                                         "block",
                                         "grid",
                                         "threads_launched",
                                         "threads_needed",
                                         "time_ms_median",
                                         "time_ms_min",
                                         "time_ms_max",
                                         "repeats",
                                         "ideal_bytes",
                                         "gbps",
                                         "pct_of_copy_roof",
                                         "copy_memcpy_gbps",
                                         "copy_kernel_gbps",
                                         "payload_bytes",
                                         "payload_gbps",
                                         "flops",
                                         "tflops",
                                         "verified",
                                         "verify_detail",
                                         "counters",
                                         "ld_requests_measured",
                                         "ld_requests_predicted",
                                         "ld_sectors_measured"};
  ASSERT_GE(header.size(), leading.size());
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + leading.size()), leading);
  const std::vector<std::string> trailing{"model_mismatch", "counters_missing", "alloc_ms",
                                          "h2d_ms",         "kernel_phase_ms",  "d2h_ms",
                                          "verify_ms",      "kernel",           "registers",
                                          "local_bytes",    "blocks_per_sm",    "occupancy_pct"};
  ASSERT_GE(header.size(), trailing.size());
  EXPECT_EQ(std::vector<std::string>(header.end() - static_cast<std::ptrdiff_t>(trailing.size()),
                                     header.end()),
            trailing);
}

TEST(report_csv, host_phases_are_written_for_a_measured_row_and_empty_without_a_gpu) {
  result_row row = aos_float3_row(1179648);
  row.phases = {12.5, 3.25, 40.0, 7.75, 2.0, 0.0};
  const std::string measured = write({row}, output_format::csv);
  const std::string line = measured.substr(measured.find('\n') + 1);
  // The resource fields follow, empty for a row without them.
  EXPECT_NE(line.find(",12.500,3.250,40.000,7.750,2.000,,,,,\n"), std::string::npos) << line;
  row.measured = false;
  const std::string predicted = write({row}, output_format::csv);
  EXPECT_NE(predicted.find(",,,,,,,,,,\n"), std::string::npos) << predicted;
}

TEST(report_csv, kernel_resources_are_written_for_the_main_kernel) {
  result_row row = aos_float3_row(1179648);
  row.resources = {report_samples::resources_of("tiled_kernel", 40, 256, 4)};
  const std::string text = write({row}, output_format::csv);
  EXPECT_NE(text.find(",tiled_kernel,40,0,4,50.00\n"), std::string::npos) << text;
}

TEST(report_csv, quotes_a_field_with_commas_quotes_or_line_breaks) {
  result_row row = aos_float3_row(1179648);
  row.verification.detail = "max err 1, \"rel\"\nsecond line";
  const std::string text = write({row}, output_format::csv);
  EXPECT_NE(text.find(",\"max err 1, \"\"rel\"\"\nsecond line\","), std::string::npos) << text;
}

TEST(report_json, parses_back_with_every_csv_field_in_the_same_order) {
  const std::string csv = write({aos_float3_row(1179648)}, output_format::csv);
  const auto header = split(csv.substr(0, csv.find('\n')));
  const auto doc =
      nlohmann::ordered_json::parse(write({aos_float3_row(1179648)}, output_format::json));
  const auto& row = doc.at("rows").at(0);
  std::vector<std::string> keys;
  for (const auto& item : row.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, header);
  EXPECT_EQ(row.at("ld_sectors_measured").get<long long>(), 1179648);
  EXPECT_DOUBLE_EQ(row.at("ld_sectors_per_request_predicted").get<double>(), 12.0);
  EXPECT_EQ(row.at("model_mismatch").get<std::string>(), "");
}

// A CSV line's fields, quoted ones ("a, b" and "say ""ok""") whole.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// Every number in JSON is the one CSV prints, ties included: 1,002,001 sectors over 32,032
// requests is 31.28125, 31.2812 in both (a transpose's strided side at n = 1001).
TEST(report_json, numbers_equal_the_csv_text_ties_included) {
  result_row row = aos_float3_row(1179648);
  ASSERT_TRUE(row.predicted.has_value());
  row.predicted->global_ld_sectors = 1002001;
  row.predicted->global_ld_requests = 32032;
  const std::string csv = write({row}, output_format::csv);
  const auto header = split(csv.substr(0, csv.find('\n')));
  const std::string second = csv.substr(csv.find('\n') + 1);
  const auto values = csv_fields(second.substr(0, second.find('\n')));
  const auto doc = nlohmann::ordered_json::parse(write({row}, output_format::json));
  const auto& json_row = doc.at("rows").at(0);
  ASSERT_EQ(header.size(), values.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    const auto& v = json_row.at(header[i]);
    if (v.is_number()) {
      EXPECT_EQ(v.get<double>(), std::stod(values[i])) << header[i];
    }
  }
  EXPECT_EQ(json_row.at("ld_sectors_per_request_predicted").get<double>(), 31.2812);
}

TEST(report_json, a_device_name_with_quotes_and_a_newline_round_trips) {
  report_context context;
  context.device = "GPU \"Lab\" \\ edition\nsecond line\t\x01";
  context.roof.memcpy_gbps = 2904.26;
  result_row row = aos_float3_row(1179648);
  row.verification.detail = "say \"ok\"\n";
  const auto doc = nlohmann::json::parse(write({row}, output_format::json, context));
  EXPECT_EQ(doc.at("device").get<std::string>(), context.device);
  EXPECT_DOUBLE_EQ(doc.at("copy_roof_gbps").get<double>(), 2904.3);
  EXPECT_EQ(doc.at("rows").at(0).at("verify_detail").get<std::string>(), row.verification.detail);
}

TEST(report_json, values_a_run_did_not_measure_are_null) {
  report_context context;
  context.counters_note = "no GPU";
  const auto doc = nlohmann::json::parse(
      write({predicted_only(aos_float3_row(1179648))}, output_format::json, context));
  const auto& row = doc.at("rows").at(0);
  EXPECT_TRUE(row.at("time_ms_median").is_null());
  EXPECT_TRUE(row.at("ld_sectors_measured").is_null());
  EXPECT_EQ(row.at("ld_sectors_predicted").get<long long>(), 1179648);
  EXPECT_EQ(doc.at("counters_note").get<std::string>(), "no GPU");
}

TEST(report_json, an_empty_run_is_an_object_with_no_rows) {
  const auto doc = nlohmann::json::parse(write({}, output_format::json));
  EXPECT_TRUE(doc.at("rows").empty());
}

}  // namespace
}  // namespace cudalab
