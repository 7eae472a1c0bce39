// The tracer's side of a run, on the CPU: traced launches find their rows by label, a row the
// tracer could not measure says why, the counters-refused fallback fills exactly the traced
// metrics, the traced process repeats the request with counters off and one launch a point,
// the reports (trace view, CSV, per-line table) carry the trace, and a traced child that never
// ends is killed at the deadline instead of making the run wait forever.
#include "sample_rows.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"
#include "cudalab/sass_lines_run.hpp"
#include "cudalab/trace_child.hpp"
#include "cudalab/trace_lines.hpp"
#include "cudalab/trace_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

namespace cudalab {
namespace {

using report_samples::aos_float3_row;

std::string label_of(const result_row& row) {
  return trace::trace_point_label(row.variant_name, row.config.size, row.config.block,
                                  row.config.param);
}

// What the tracer reports for the float3 update at the row's size: its predicted counts, split
// over three load pcs (one per component) as the binary issues them.
trace::traced_launch float3_launch(const result_row& row) {
  trace::traced_launch l;
  l.label = label_of(row);
  l.kernel = "_Z23aos_float3_naive_kernelP6float3S0_fi";
  const auto& p = *row.predicted;
  for (std::uint64_t i = 0; i < 3; ++i) {
    trace::traced_pc pc;
    pc.offset = 0xd0 + 0x10 * i;
    pc.instructions = p.global_ld_requests / 3;
    pc.sectors = p.global_ld_sectors / 3;
    pc.bytes = p.global_ld_bytes / 3;
    l.pcs.push_back(pc);
  }
  return l;
}

TEST(trace_run, launches_find_their_rows_by_label) {
  std::vector<result_row> rows = {aos_float3_row(1179648)};
  attach_traces(rows, {float3_launch(rows[0])}, "not traced");
  ASSERT_TRUE(rows[0].trace);
  ASSERT_TRUE(rows[0].trace->available) << rows[0].trace->reason;
  EXPECT_EQ(rows[0].trace->counts.global_ld_requests, rows[0].predicted->global_ld_requests);
  EXPECT_EQ(rows[0].trace->counts.global_ld_sectors, rows[0].predicted->global_ld_sectors);
}

TEST(trace_run, a_row_without_launches_or_with_an_error_says_why) {
  std::vector<result_row> rows = {aos_float3_row(1179648), aos_float3_row(1179648)};
  rows[1].config.block = 128;
  trace::traced_launch failed;
  failed.label = label_of(rows[1]);
  failed.error = "sanitizerPatchModule failed: SANITIZER_ERROR_NOT_SUPPORTED (14)";
  attach_traces(rows, {failed}, "a baseline");
  EXPECT_FALSE(rows[0].trace->available);
  EXPECT_EQ(rows[0].trace->reason, "a baseline");
  EXPECT_FALSE(rows[1].trace->available);
  EXPECT_EQ(rows[1].trace->reason, failed.error);
}

TEST(trace_run, a_full_table_makes_the_trace_unavailable) {
  std::vector<result_row> rows = {aos_float3_row(1179648)};
  trace::traced_launch l = float3_launch(rows[0]);
  l.dropped = 12;
  attach_traces(rows, {l}, "");
  EXPECT_FALSE(rows[0].trace->available);
  EXPECT_NE(rows[0].trace->reason.find("12 accesses"), std::string::npos);
}

TEST(trace_run, refused_counters_are_filled_with_the_traced_metrics_only) {
  std::vector<result_row> rows = {aos_float3_row(0)};
  rows[0].counters = {};
  rows[0].counters.reason = "GPU performance counters are restricted to admin users";
  attach_traces(rows, {float3_launch(rows[0])}, "");
  counters_from_trace(rows[0]);
  const counter_cell& c = rows[0].counters;
  EXPECT_TRUE(c.available);
  EXPECT_TRUE(c.from_trace);
  EXPECT_EQ(c.totals.size(), traced_metrics().size());
  EXPECT_EQ(*c.get("ld_sectors"), static_cast<double>(rows[0].predicted->global_ld_sectors));
  EXPECT_EQ(*c.get("ld_requests"), static_cast<double>(rows[0].predicted->global_ld_requests));
  EXPECT_FALSE(c.get("dram_read_bytes").has_value());
}

TEST(trace_run, no_trace_leaves_the_counters_as_they_were) {
  result_row row = aos_float3_row(0);
  row.counters = {};
  row.counters.reason = "refused";
  counters_from_trace(row);
  EXPECT_FALSE(row.counters.available);
  EXPECT_EQ(row.counters.reason, "refused");
}

TEST(trace_run, the_traced_process_repeats_the_request_once_without_counters) {
  lab l;
  l.id = "04-coalescing";
  variant a, b, roof;
  a.name = "aos_float3";
  b.name = "offset";
  b.sweep = sweep_spec{"offset", {0, 1}, 0, 32};
  roof.name = "memcpy";
  roof.role = variant_role::baseline;
  l.variants = {a, b, roof};
  run_request r;
  r.which = &l;
  r.sizes = {1000003};
  r.blocks = {96};
  r.sweep.values["offset"] = {1, 8};
  r.device = 0;
  const auto args = traced_run_arguments(r, "/tmp/w/run.json");
  const auto after = [&](const std::string& option) {
    const auto it = std::find(args.begin(), args.end(), option);
    return it == args.end() || it + 1 == args.end() ? std::string("<none>") : *(it + 1);
  };
  EXPECT_EQ(args[0], "run");
  EXPECT_EQ(args[1], "04-coalescing");
  EXPECT_EQ(after("--variant"), "aos_float3,offset");  // the baseline is not traced
  EXPECT_EQ(after("--size"), "1000003");
  EXPECT_EQ(after("--block"), "96");
  EXPECT_EQ(after("--sweep"), "offset=1,8");
  EXPECT_EQ(after("--warmup"), "0");
  EXPECT_EQ(after("--repeat"), "1");
  EXPECT_EQ(after("--output"), "/tmp/w/run.json");
  EXPECT_NE(std::find(args.begin(), args.end(), "--no-counters"), args.end());
}

std::string render(const std::vector<result_row>& rows, report_view view, output_format format) {
  report_options options;
  options.view = view;
  options.format = format;
  std::ostringstream out;
  write_report(out, rows, options, report_context{});
  return out.str();
}

TEST(trace_run, the_trace_view_shows_model_trace_and_counters_side_by_side) {
  std::vector<result_row> rows = {aos_float3_row(1179648)};
  attach_traces(rows, {float3_launch(rows[0])}, "");
  const std::string text = render(rows, report_view::trace, output_format::table);
  EXPECT_NE(text.find("ld_sectors"), std::string::npos) << text;
  EXPECT_NE(text.find("1,179,648"), std::string::npos) << text;
  EXPECT_NE(text.find("= model, = counters"), std::string::npos) << text;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
}

TEST(trace_run, the_trace_view_fits_120_columns_with_ten_digit_counts_that_differ) {
  result_row row = aos_float3_row(0);
  row.variant_name = "interleaved_divergent";
  model::access_counts& p = *row.predicted;
  p.global_ld_requests = p.global_st_requests = p.shared_ld_wavefronts = 1234567890;
  p.global_ld_sectors = p.global_st_sectors = p.shared_st_conflicts = 9876543210;
  trace::traced_launch l;
  l.label = label_of(row);
  trace::traced_pc shared;
  shared.space = model::memory_space::shared;
  shared.instructions = 1;
  shared.wavefronts = 9999999999;
  shared.ideal = 1;
  l.pcs = {shared};
  std::vector<result_row> rows = {row};
  attach_traces(rows, {l}, "");
  for (const auto& m : traced_metrics())
    report_samples::set_counter(rows[0], m.c_str(), 5555555555);
  const std::string text = render(rows, report_view::trace, output_format::table);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
}

TEST(trace_run, the_trace_view_names_a_difference) {
  std::vector<result_row> rows = {aos_float3_row(1179650)};
  trace::traced_launch l = float3_launch(rows[0]);
  l.pcs[0].sectors += 5;
  attach_traces(rows, {l}, "");
  const std::string text = render(rows, report_view::trace, output_format::table);
  EXPECT_NE(text.find("model +5, counters -3"), std::string::npos) << text;
}

TEST(trace_run, csv_and_json_carry_the_trace_columns) {
  std::vector<result_row> rows = {aos_float3_row(1179648)};
  attach_traces(rows, {float3_launch(rows[0])}, "");
  const std::string csv = render(rows, report_view::standard, output_format::csv);
  const std::string header = csv.substr(0, csv.find('\n'));
  for (const auto& m : traced_metrics())
    EXPECT_NE(header.find("trace_" + m), std::string::npos) << m;
  const std::string json = render(rows, report_view::standard, output_format::json);
  EXPECT_NE(json.find("\"trace_ld_sectors\": 1179648"), std::string::npos) << json;
}

TEST(trace_run, lines_without_line_info_are_pcs_sorted_by_waste) {
  std::vector<result_row> rows = {aos_float3_row(1179648)};
  trace::traced_launch l = float3_launch(rows[0]);
  trace::traced_pc coalesced;
  coalesced.offset = 0x200;
  coalesced.kind = trace::traced_kind::store;
  coalesced.instructions = 10;
  coalesced.sectors = 40;
  coalesced.bytes = 40 * 32;
  l.pcs.insert(l.pcs.begin(), coalesced);
  attach_traces(rows, {l}, "");
  const auto lines = lines_of(*rows[0].trace, "");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.back().where, "pc 0x200 (no line)");  // no waste: last
  EXPECT_EQ(lines.back().waste(), 0);
  EXPECT_GT(lines.front().waste(), 0);
  EXPECT_EQ(lines.front().kernel, "aos_float3_naive_kernel");
}

// Hardware counts per line (run --lines with counters): each point runs alone in its own
// process, once per kernel function, with the user's block only when the user gave one.
TEST(trace_run, a_points_own_process_repeats_that_point_alone) {
  lab l;
  l.id = "04-coalescing";
  run_request r;
  r.which = &l;
  r.device = 1;
  result_row row = aos_float3_row(0);
  row.config.size = 1000003;
  row.variant_name = "offset";
  row.sweep_name = "offset";
  row.config.param = 8;
  const auto after = [](const std::vector<std::string>& args, const std::string& option) {
    const auto it = std::find(args.begin(), args.end(), option);
    return it == args.end() || it + 1 == args.end() ? std::string("<none>") : *(it + 1);
  };
  auto args = point_run_arguments(r, row, "/tmp/w/run.json");
  EXPECT_EQ(args[1], "04-coalescing");
  EXPECT_EQ(after(args, "--variant"), "offset");
  EXPECT_EQ(after(args, "--size"), "1000003");
  EXPECT_EQ(after(args, "--block"), "<none>");
  EXPECT_EQ(after(args, "--sweep"), "offset=8");
  EXPECT_EQ(after(args, "--device"), "1");
  EXPECT_EQ(after(args, "--repeat"), "1");
  EXPECT_NE(std::find(args.begin(), args.end(), "--no-counters"), args.end());
  r.blocks = {96, 128};
  row.config.block = 128;
  args = point_run_arguments(r, row, "/tmp/w/run.json");
  EXPECT_EQ(after(args, "--block"), "128");
}

TEST(trace_run, a_hardware_cell_is_available_only_when_every_function_was_measured) {
  result_row row = aos_float3_row(1179648);
  trace::traced_launch first = float3_launch(row), second = float3_launch(row);
  second.kernel = "_Z6secondPf";
  const trace_cell both = hardware_cell({first, second});
  EXPECT_TRUE(both.available);
  EXPECT_EQ(both.counts.global_ld_requests, 2 * trace::traced_counts({first}).global_ld_requests);
  second.pcs.clear();
  second.error = "cuptiSassMetricsSetConfig failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
  const trace_cell refused = hardware_cell({first, second});
  EXPECT_FALSE(refused.available);
  EXPECT_EQ(refused.reason, second.error);
  EXPECT_FALSE(hardware_cell({}).available);
}

// The tracer's line, then the hardware's under it; a line counted differently is returned.
TEST(trace_run, the_lines_view_puts_the_hardwares_counts_under_the_tracers) {
  std::vector<result_row> rows = {aos_float3_row(1179648)};
  const trace::traced_launch traced = float3_launch(rows[0]);
  attach_traces(rows, {traced}, "");
  trace::traced_launch counted = traced;
  counted.pcs[0].instructions = 4'000'000'000ull;  // wide numbers must still fit 120 columns
  counted.pcs[0].sectors = 48'000'000'000ull;
  rows[0].hardware_lines = hardware_cell({counted});
  std::ostringstream out;
  const auto differ = write_lines_view(out, rows, "");
  ASSERT_EQ(differ.size(), 1u) << out.str();
  EXPECT_NE(differ[0].find("pc 0xd0 (no line)"), std::string::npos) << differ[0];
  std::istringstream in(out.str());
  std::vector<std::string> text;
  for (std::string line; std::getline(in, line);) {
    EXPECT_LE(line.size(), 120u) << line;
    text.push_back(line);
  }
  std::size_t pairs = 0;
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    if (text[i].rfind("  pc 0x", 0) == 0 && text[i + 1].rfind("    hardware ", 0) == 0) ++pairs;
  EXPECT_EQ(pairs, 3u) << out.str();
  EXPECT_NE(out.str().find("48,000,000,000"), std::string::npos) << out.str();
  // Equal counts: nothing returned; no hardware cell: the trace alone, and the reason.
  rows[0].hardware_lines = hardware_cell({traced});
  std::ostringstream same;
  EXPECT_TRUE(write_lines_view(same, rows, "").empty()) << same.str();
  rows[0].hardware_lines = trace_cell{false, "--no-counters", {}, {}};
  std::ostringstream alone;
  EXPECT_TRUE(write_lines_view(alone, rows, "").empty());
  EXPECT_NE(alone.str().find("hardware counts n/a (--no-counters)"), std::string::npos)
      << alone.str();
  EXPECT_EQ(alone.str().find("    hardware "), std::string::npos) << alone.str();  // no row
}

TEST(trace_run, kernel_names_are_demangled_without_parameters) {
  EXPECT_EQ(kernel_display_name("_Z23aos_float3_naive_kernelP6float3S0_fi"),
            "aos_float3_naive_kernel");
  EXPECT_EQ(kernel_display_name("plain_c_kernel"), "plain_c_kernel");
  // A template kernel: its return type and parameters go; an anonymous namespace stays readable.
  EXPECT_EQ(kernel_display_name("_ZN7cudalab6matmul12_GLOBAL__N_112tiled_kernelILi8EEEvPKfS4_Pfi"),
            "cudalab::matmul::{anonymous}::tiled_kernel<8>");
}

// Sets an environment variable for one test and restores it after.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old, m_had = true;
    ::setenv(name, value, 1);
  }
  ~scoped_env() {
    if (m_had)
      ::setenv(m_name.c_str(), m_old.c_str(), 1);
    else
      ::unsetenv(m_name.c_str());
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  std::string m_name;
  std::string m_old;
  bool m_had = false;
};

TEST(trace_run, the_deadline_grows_with_the_points_and_obeys_the_environment) {
  scoped_env unset("CUDALAB_TRACE_TIMEOUT_S", "");
  const int one = trace_deadline_seconds({"run", "04", "--variant", "soa", "--size", "4097"});
  EXPECT_GT(one, 0);
  // 4 variants x 4 sizes: twice the points one deadline covers.
  const int sixteen =
      trace_deadline_seconds({"run", "04", "--variant", "a,b,c,d", "--size", "1,2,3,4"});
  EXPECT_EQ(sixteen, 2 * one);
  scoped_env set("CUDALAB_TRACE_TIMEOUT_S", "7");
  EXPECT_EQ(trace_deadline_seconds({"run", "04"}), 7);
  scoped_env bad("CUDALAB_TRACE_TIMEOUT_S", "soon");
  EXPECT_THROW(trace_deadline_seconds({"run", "04"}), usage_error);
}

TEST(trace_run, a_child_that_never_ends_is_killed_at_the_deadline) {
  // `sleep` stands in for a traced run that hangs; its argument list carries no --variant.
  scoped_env deadline("CUDALAB_TRACE_TIMEOUT_S", "1");
  const trace_workspace workspace;
  const auto started = std::chrono::steady_clock::now();
  std::string message;
  try {
    run_traced_child("/bin/sleep", {"60"}, trace::tracer_install{}, workspace);
  } catch (const error& e) {
    message = e.what();
  }
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(message, "the traced run did not finish in 1 s; its log: " + workspace.log_file());
  EXPECT_LT(waited, std::chrono::seconds(30));
}

TEST(trace_run, a_child_that_ends_in_time_is_not_killed) {
  scoped_env deadline("CUDALAB_TRACE_TIMEOUT_S", "30");
  const trace_workspace workspace;
  EXPECT_NO_THROW(run_traced_child("/bin/true", {}, trace::tracer_install{}, workspace));
}

}  // namespace
}  // namespace cudalab
