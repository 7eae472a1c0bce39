// The table views: the default view (headline figures, predictions only where they differ,
// at most 120 columns), the full view (every column) and the details view (one variant as a
// vertical list).
#include "sample_rows.hpp"

#include "cudalab/check.hpp"
#include "cudalab/report.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace cudalab {
namespace {

using report_samples::aos_float3_row;
using report_samples::predicted_only;
using report_samples::set_counter;

std::string render(const std::vector<result_row>& rows, report_view view,
                   const lab* which = nullptr, const std::string& details = "") {
  report_options options;
  options.view = view;
  options.details_variant = details;
  return report_samples::written_report(
      rows, options,
      report_context{"NVIDIA H100 80GB HBM3 (sm_90)", copy_roof{2904, 0}, "", which});
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string line_with(const std::string& text, const std::string& needle) {
  for (const auto& line : lines_of(text))
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

lab lab_with_headline(std::vector<std::string> headline) {
  lab l;
  l.id = "04-coalescing";
  l.headline_metrics = std::move(headline);
  return l;
}

TEST(default_view, shows_the_headline_figures_the_lab_declares) {
  const lab l = lab_with_headline({"ld_sectors_per_request", "ld_requests"});
  const std::string text = render({aos_float3_row(1179648)}, report_view::standard, &l);
  const std::string header = line_with(text, "variant");
  EXPECT_NE(header.find("ld sect/req"), std::string::npos) << text;
  EXPECT_NE(header.find("ld req"), std::string::npos) << text;
  EXPECT_EQ(header.find("st sect/req"), std::string::npos) << text;
}

TEST(default_view, an_unknown_headline_figure_is_an_error) {
  const lab l = lab_with_headline({"ld_sector_per_request"});
  EXPECT_THROW(render({aos_float3_row(1179648)}, report_view::standard, &l), error);
}

TEST(default_view, shows_the_prediction_only_where_it_differs) {
  const lab l = lab_with_headline({"ld_sectors_per_request"});
  result_row agrees = aos_float3_row(1179648);
  result_row wrong = aos_float3_row(4 * 98304);
  wrong.variant_name = "wrong";
  const std::string text = render({agrees, wrong}, report_view::standard, &l);
  EXPECT_NE(line_with(text, "aos_float3").find("12.00  ok"), std::string::npos) << text;
  EXPECT_EQ(line_with(text, "aos_float3").find("pred"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "wrong").find("4.00 (pred 12.00) !"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "wrong").find("MISMATCH ld_sectors"), std::string::npos) << text;
  EXPECT_NE(text.find("!: differs from the access model"), std::string::npos) << text;
}

TEST(default_view, counts_that_differ_past_the_printed_digits_print_in_full) {
  const lab l = lab_with_headline({"ld_sectors"});
  const std::string text = render({aos_float3_row(1179650)}, report_view::standard, &l);
  EXPECT_NE(text.find("1,179,650 (pred 1,179,648) !"), std::string::npos) << text;
}

TEST(default_view, without_a_gpu_shows_the_predictions_as_such) {
  const std::string text = render({predicted_only(aos_float3_row(1179648))}, report_view::standard);
  const std::string row = line_with(text, "aos_float3");
  EXPECT_NE(row.find("pred 12.00"), std::string::npos) << text;
  EXPECT_NE(row.find("n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("1,048,576 elements, 256 threads a block"), std::string::npos) << text;
}

TEST(default_view, a_counter_this_run_could_not_collect_reads_na_with_its_reason) {
  result_row row = aos_float3_row(1179648);
  const std::string cupti = find_metric("ld_sectors")->cupti_name;
  row.counters.totals.erase(cupti);
  row.counters.missing[cupti] = "not on GA100";
  const std::string text = render({row}, report_view::standard);
  EXPECT_NE(line_with(text, "aos_float3").find("n/a (not on GA100)"), std::string::npos) << text;
}

TEST(default_view, a_sweep_point_names_its_parameter_in_the_variant_column) {
  result_row row = aos_float3_row(1179648);
  row.variant_name = "offset";
  row.sweep_name = "offset";
  row.config.param = 8;
  const std::string text = render({row}, report_view::standard);
  EXPECT_EQ(line_with(text, "naive").rfind("offset=8 ", 0), 0u) << text;
}

TEST(default_view, rows_of_several_sizes_get_a_size_column) {
  result_row small = aos_float3_row(1179648), large = aos_float3_row(1179648);
  large.config.size = 1 << 24;
  const std::string text = render({small, large}, report_view::standard);
  EXPECT_NE(line_with(text, "variant").find("size"), std::string::npos) << text;
  EXPECT_NE(text.find("16,777,216"), std::string::npos) << text;
}

// The block column holds the block a launch used: its shape where it ran, "-" for a row that ran
// and launched nothing of its own (a library's or the host's work), the block asked for where
// nothing ran.
TEST(default_view, the_block_column_is_the_launch_its_row_made) {
  result_row ran = aos_float3_row(1179648), library = aos_float3_row(1179648),
             predicted = predicted_only(aos_float3_row(1179648));
  ran.config.block = 128;
  ran.shape = launch_shape{36, 1, 32, 8, 1179648};
  ran.variant_name = "tiled";
  library.shape = launch_shape{};
  library.variant_name = "cublas";
  predicted.variant_name = "asked";
  predicted.config.block = 512;
  const std::string text = render({ran, library, predicted}, report_view::standard);
  const auto cells_of = [&](const char* name) {
    std::istringstream in(line_with(text, name));
    std::vector<std::string> cells;
    for (std::string cell; in >> cell;) cells.push_back(cell);
    return cells;
  };
  ASSERT_NE(line_with(text, "variant").find("block"), std::string::npos) << text;
  EXPECT_EQ(cells_of("tiled").at(2), "256") << text;
  EXPECT_EQ(cells_of("cublas").at(2), "-") << text;
  EXPECT_EQ(cells_of("asked").at(2), "512") << text;
}

TEST(default_view, without_a_gpu_a_library_or_cpu_baseline_shows_no_block) {
  result_row kernel = predicted_only(aos_float3_row(1179648)),
             library = predicted_only(aos_float3_row(1179648)),
             cpu = predicted_only(aos_float3_row(1179648));
  kernel.variant_name = "tiled";
  kernel.config.block = 128;  // blocks that differ: the table gets a block column
  library.variant_name = "cublas";
  library.block_from_config = false;
  cpu.variant_name = "cpu_naive";
  cpu.block_from_config = false;
  const std::string text = render({kernel, library, cpu}, report_view::standard);
  const auto block_of = [&](const char* name) {
    std::istringstream in(line_with(text, name));
    std::vector<std::string> cells;
    for (std::string cell; in >> cell;) cells.push_back(cell);
    return cells.at(2);
  };
  ASSERT_NE(line_with(text, "variant").find("block"), std::string::npos) << text;
  EXPECT_EQ(block_of("tiled"), "128") << text;
  EXPECT_EQ(block_of("cublas"), "-") << text;
  EXPECT_EQ(block_of("cpu_naive"), "-") << text;
}

TEST(default_view, time_carries_its_unit) {
  result_row fast = aos_float3_row(1179648), slow = aos_float3_row(1179648);
  slow.variant_name = "slow";
  slow.time.median_ms = 14.2;
  const std::string text = render({fast, slow}, report_view::standard);
  EXPECT_NE(line_with(text, "aos_float3").find("500.0 us"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "slow").find("14.20 ms"), std::string::npos) << text;
}

TEST(default_view, a_flop_bound_lab_shows_tflops_instead_of_gbps) {
  lab l = lab_with_headline({"ld_sectors_per_request"});
  l.flop_bound = true;
  result_row row = aos_float3_row(1179648);
  row.ideal.flops = 2e9;  // 2 GFLOP in 0.5 ms: 4 TFLOP/s
  const std::string text = render({row}, report_view::standard, &l);
  EXPECT_NE(line_with(text, "variant").find("TFLOP/s"), std::string::npos) << text;
  EXPECT_EQ(line_with(text, "variant").find("GB/s"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "aos_float3").find("4.00"), std::string::npos) << text;
}

TEST(default_view, gives_up_predictions_before_it_exceeds_120_columns) {
  // Four wide headline figures that all disagree with the model, on a long variant name.
  const lab l =
      lab_with_headline({"ld_sectors", "ld_requests", "ld_sectors_per_request", "dram_per_ideal"});
  result_row row = aos_float3_row(123456789);
  row.variant_name = "interleaved_divergent_x";
  set_counter(row, "ld_requests", 98765432);
  set_counter(row, "st_requests", 1);
  set_counter(row, "dram_read_bytes", 3e9);
  const std::string text = render({row}, report_view::standard, &l);
  for (const auto& line : lines_of(text)) EXPECT_LE(line.size(), 120u) << line;
  EXPECT_NE(text.find("--details VARIANT shows both values"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "interleaved").find("MISMATCH"), std::string::npos) << text;
}

TEST(default_view, threads_launched_over_needed_comes_from_the_launch_shape) {
  const lab l = lab_with_headline({"threads_launched_per_needed", "ld_sectors_per_request"});
  result_row row = aos_float3_row(1179648);
  row.shape = {4100, 1, 256, 1, 1 << 20};  // 4 blocks more than 2^20 / 256
  const std::string text = render({row}, report_view::standard, &l);
  EXPECT_NE(line_with(text, "aos_float3").find("1.0010x"), std::string::npos) << text;
  EXPECT_EQ(line_with(text, "aos_float3").find("pred"), std::string::npos) << text;
}

TEST(default_view, launched_over_needed_is_never_rounded_to_one_unless_it_is_one) {
  // Lab 01's grid_underlaunch at 10M: 39,062 blocks of 256 for 10,000,000 elements, 0.9999872;
  // at 4 decimals it read 1.0000x, the value of a launch that covers every element exactly.
  const lab l = lab_with_headline({"threads_launched_per_needed", "ld_sectors_per_request"});
  result_row row = aos_float3_row(1179648);
  row.shape = {39062, 1, 256, 1, 10000000};
  EXPECT_NE(line_with(render({row}, report_view::standard, &l), "aos_float3").find("0.99999x"),
            std::string::npos);
  row.shape = {39063, 1, 256, 1, 10000000};  // ceil: 128 threads idle, 1.0000128
  EXPECT_NE(line_with(render({row}, report_view::standard, &l), "aos_float3").find("1.00001x"),
            std::string::npos);
  row.shape = {4096, 1, 256, 1, 1 << 20};  // exactly enough
  EXPECT_NE(line_with(render({row}, report_view::standard, &l), "aos_float3").find("1.0000x"),
            std::string::npos);
}

TEST(full_view, shows_measured_beside_predicted_and_flags_the_mismatch) {
  const std::string text = render({aos_float3_row(1179650)}, report_view::full);
  EXPECT_NE(text.find("1,179,650 !"), std::string::npos) << text;
  EXPECT_NE(text.find("1,179,648"), std::string::npos) << text;
  EXPECT_NE(text.find("12.00|12.00"), std::string::npos) << text;
  EXPECT_NE(text.find("ok (exact)"), std::string::npos) << text;
  EXPECT_NE(text.find("MISMATCH: ld_sectors"), std::string::npos) << text;
}

TEST(full_view, a_counter_this_run_could_not_collect_reads_na_with_its_reason) {
  result_row row = aos_float3_row(1179648);
  row.counters.missing[find_metric("dram_read_bytes")->cupti_name] = "not on GA100";
  const std::string text = render({row}, report_view::full);
  EXPECT_NE(line_with(text, "variant").find("dram_read_bytes"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "aos_float3").find("n/a (not on GA100)"), std::string::npos) << text;
}

TEST(full_view, counts_print_as_whole_numbers) {
  // Replays, like requests and sectors, are counted events: no fraction to show.
  result_row row = aos_float3_row(1179648);
  set_counter(row, "constant_replays", 130023424);
  const std::string text = render({row}, report_view::full);
  EXPECT_NE(line_with(text, "aos_float3").find("130,023,424"), std::string::npos) << text;
  EXPECT_EQ(text.find("130023424.00"), std::string::npos) << text;
}

TEST(details_view, lists_each_metric_with_unit_measured_predicted_and_meaning) {
  const std::string text =
      render({aos_float3_row(1179650)}, report_view::details, nullptr, "aos_float3");
  const std::string sectors = line_with(text, "  ld_sectors ");
  EXPECT_NE(sectors.find("sectors"), std::string::npos) << text;
  EXPECT_NE(sectors.find("1,179,650 !"), std::string::npos) << text;
  EXPECT_NE(sectors.find("1,179,648"), std::string::npos) << text;
  EXPECT_NE(sectors.find("32-byte sectors"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "ld sect/req").find("12.00"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "verification").find("exact"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "model verdict").find("MISMATCH: ld_sectors"), std::string::npos)
      << text;
  for (const auto& line : lines_of(text)) EXPECT_LE(line.size(), 120u) << line;
}

TEST(details_view, says_where_the_hosts_time_went_phase_by_phase) {
  result_row row = aos_float3_row(1179648);
  row.phases = {120.5, 30.4, 9.75, 270.0, 52.0, 0.0};
  const std::string text = render({row}, report_view::details, nullptr, "aos_float3");
  EXPECT_NE(line_with(text, "  alloc ").find("120.5"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "  h2d ").find("30.4"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "  d2h ").find("270.0"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "  verify ").find("52.0"), std::string::npos) << text;
}

TEST(details_view, predicts_only_the_counters_the_model_is_held_to) {
  // The model counts LDS instructions with an active lane; the counter also counts
  // predicated-off ones, so the model's figure is no prediction of it.
  result_row row = aos_float3_row(1179648);
  row.predicted->shared_ld_instructions = 95;
  report_samples::set_counter(row, "shared_ld_inst", 129);
  const std::string text = render({row}, report_view::details, nullptr, "aos_float3");
  const std::string line = line_with(text, "  shared_ld_inst ");
  EXPECT_NE(line.find("129  "), std::string::npos) << text;
  EXPECT_EQ(line.find("95"), std::string::npos) << text;
}

TEST(details_view, lists_every_row_of_the_variant_and_no_other) {
  result_row first = aos_float3_row(1179648), second = aos_float3_row(1179648),
             other = aos_float3_row(1179648);
  second.config.size = 1 << 22;
  other.variant_name = "soa";
  const std::string text =
      render({first, other, second}, report_view::details, nullptr, "aos_float3");
  EXPECT_NE(text.find("aos_float3 (naive), 1,048,576 elements"), std::string::npos) << text;
  EXPECT_NE(text.find("aos_float3 (naive), 4,194,304 elements"), std::string::npos) << text;
  EXPECT_EQ(text.find("soa"), std::string::npos) << text;
}

TEST(details_view, a_variant_without_rows_is_a_usage_error) {
  EXPECT_THROW(render({aos_float3_row(1179648)}, report_view::details, nullptr, "soa"),
               usage_error);
}

}  // namespace
}  // namespace cudalab
