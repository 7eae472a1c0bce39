// Every lab's default table fits a terminal of 120 columns: with the model's predictions only
// (no GPU), and with measured rows made from those predictions, including rows that disagree
// with the model, counters a chip lacks, and counters refused for the whole run.
#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"
#include "cudalab/report_figures.hpp"
#include "cudalab/runner.hpp"
#include "sample_rows.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace cudalab {
namespace {

constexpr std::size_t terminal_columns = 120;

std::vector<result_row> predicted_rows(const lab& l) {
  run_request request;
  request.which = &l;
  request.gpu = false;
  return run_lab(request);
}

// A GPU run as it could come back: counters equal to the predictions, DRAM near the ideal,
// and every fourth row off the model in a different way.
std::vector<result_row> measured_rows(std::vector<result_row> rows) {
  const double times_ms[] = {0.0123, 0.2083, 14.2, 1234.5};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    result_row& row = rows[i];
    row.measured = true;
    const std::size_t block = static_cast<std::size_t>(row.config.block);
    row.shape = {(row.config.size + block - 1) / block, 1, static_cast<unsigned>(block), 1,
                 row.config.size};
    row.time = {times_ms[i % 4], times_ms[i % 4] * 0.99, times_ms[i % 4] * 1.2, 20};
    row.gbps = row.ideal.bytes / (row.time.median_ms * 1e-3) / 1e9;
    row.pct_of_roof = 100.0 * row.gbps / 2904.0;
    row.verification = {i % 5 != 4,
                        "blocks: max rel err 1.7e-07 <= 1e-05; sum rel err 9.5e-11 <= 0.0002"};
    row.counters = {};
    row.counters.available = true;
    if (row.predicted)
      for (const auto& [name, value] : model_values(*row.predicted))
        if (const metric_info* info = find_metric(name)) row.counters.totals[info->key()] = value;
    const auto set = [&](const char* name, double value) {
      row.counters.totals[find_metric(name)->key()] = value;
    };
    set("dram_read_bytes", 1.01 * row.ideal.bytes);
    set("dram_write_bytes", 0.5 * row.ideal.bytes);
    switch (i % 4) {
      case 1:  // exact counts off the model
        set("ld_sectors", row.counters.get("ld_sectors").value_or(0) * 3 + 12345);
        set("st_requests", row.counters.get("st_requests").value_or(0) + 7);
        set("thread_efficiency", 17.123456);
        break;
      case 2:  // shared memory above its band, branches off
        set("shared_ld_conflicts", 1e8);
        set("shared_st_conflicts", 9.87654e7);
        set("divergent_branches", 123456789);
        break;
      case 3:  // counters this chip lacks
        for (const char* name :
             {"ld_sectors", "dram_read_bytes", "thread_efficiency", "shared_ld_conflicts"}) {
          const std::string cupti = find_metric(name)->key();
          row.counters.totals.erase(cupti);
          row.counters.missing[cupti] = "not on GA100";
        }
        break;
      default:
        break;
    }
  }
  return rows;
}

std::vector<result_row> refused_counters(std::vector<result_row> rows) {
  for (auto& row : rows) {
    row.counters = {};
    row.counters.reason =
        "GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM)";
  }
  return rows;
}

void expect_fits(const std::string& what, const lab& l, const std::vector<result_row>& rows,
                 const report_context& base) {
  report_context context = base;
  context.which = &l;
  std::ostringstream out;
  write_report(out, rows, report_options{}, context);
  std::istringstream lines(out.str());
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count)
    EXPECT_LE(line.size(), terminal_columns) << l.id << " " << what << ":\n" << line;
  EXPECT_GT(count, rows.size()) << l.id << " " << what << ": a header and a line a row";
}

TEST(default_view, every_lab_fits_120_columns_with_and_without_a_gpu) {
  ASSERT_FALSE(all_labs().empty());
  // Both copies measured: the roof's longest line.
  const report_context gpu{"NVIDIA H100 80GB HBM3 (sm_90)", copy_roof{2904.0, 3012.0}, "", nullptr};
  for (const lab& l : all_labs()) {
    const auto predicted = predicted_rows(l);
    ASSERT_FALSE(predicted.empty()) << l.id;
    expect_fits("predictions only", l, predicted, {"", copy_roof{}, "no GPU", nullptr});
    expect_fits("measured", l, measured_rows(predicted), gpu);
    report_context refused = gpu;
    refused.counters_note = refused_counters(predicted).front().counters.reason;
    expect_fits("counters refused", l, refused_counters(measured_rows(predicted)), refused);
  }
}

// Lab 08's sweep as its README captures it: two sizes and a sweep (size and variant columns
// wide), registers and occupancy, counters disabled, and cuBLAS's rows, which have no model.
TEST(default_view, a_timed_sweep_without_counters_fits_120_columns) {
  const lab* l = find_lab("08");
  ASSERT_NE(l, nullptr);
  run_request request;
  request.which = l;
  request.gpu = false;
  request.variants = {l->find("warp_tiled"), l->find("cublas")};
  ASSERT_NE(request.variants[0], nullptr);
  ASSERT_NE(request.variants[1], nullptr);
  request.sizes = {4096, 8192};
  request.sweep.values["config"] = {0, 4};
  std::vector<result_row> rows = measured_rows(run_lab(request));
  for (result_row& row : rows) {
    row.counters = {};
    row.counters.reason = "disabled (--no-counters)";
    if (row.variant_name == "cublas") {
      row.shape = launch_shape{};
    } else {
      row.resources = {report_samples::resources_of("warp_tiled_kernel", 227, 128, 2)};
    }
  }
  report_context context{"NVIDIA H200 (sm_90)", copy_roof{4018.0, 4071.0}, "", l};
  context.counters_note = "disabled (--no-counters)";
  expect_fits("timed sweep without counters", *l, rows, context);
}

TEST(default_view, every_lab_declares_two_or_three_known_headline_figures) {
  for (const lab& l : all_labs()) {
    EXPECT_GE(l.headline_metrics.size(), 2u) << l.id;
    EXPECT_LE(l.headline_metrics.size(), 3u) << l.id;
    for (const auto& name : l.headline_metrics)
      EXPECT_NE(find_figure(name), nullptr) << l.id << ": " << name;
  }
}

}  // namespace
}  // namespace cudalab
