// `cudalab profile`'s report on traced launches made here (no GPU): kernels summed by name, the
// ideal sectors and the waste, the most waste first, --kernel, launches the tracer could not
// trace, the 120-column table, CSV quoting and the JSON record.
#include "profile_report.hpp"

#include "cudalab/trace/launch_counters.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace cudalab::tool {
namespace {

// A launch of `kernel` with one global pc: `requests` warp loads of `bytes` each over `sectors`.
trace::traced_launch launch(const std::string& kernel, std::uint64_t requests, std::uint64_t bytes,
                            std::uint64_t sectors) {
  trace::traced_launch l;
  l.label = "every launch";
  l.kernel = kernel;
  trace::traced_pc pc;
  pc.space = model::memory_space::global;
  pc.kind = trace::traced_kind::load;
  pc.instructions = requests;
  pc.bytes = requests * bytes;
  pc.sectors = sectors;
  l.pcs.push_back(pc);
  return l;
}

TEST(profile_report, kernels_are_summed_by_name_and_the_most_waste_comes_first) {
  // A coalesced kernel (128 bytes, 4 sectors a request) launched twice, a strided one once.
  const std::vector<trace::traced_launch> launches{launch("coalesced", 10, 128, 40),
                                                   launch("strided", 10, 128, 320),
                                                   launch("coalesced", 10, 128, 40)};
  const std::vector<kernel_profile> k = profile_kernels(launches, {});
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].name, "strided");
  EXPECT_EQ(k[0].ideal_sectors(), 40u);
  EXPECT_EQ(k[0].waste(), 280u);
  EXPECT_EQ(k[1].name, "coalesced");
  EXPECT_EQ(k[1].launches, 2u);
  EXPECT_EQ(k[1].counts.global_ld_requests, 20u);
  EXPECT_EQ(k[1].waste(), 0u);
}

TEST(profile_report, kernel_selects_by_the_demangled_name) {
  const std::vector<trace::traced_launch> launches{launch("_Z6stridedPf", 1, 128, 32),
                                                   launch("_Z9coalescedPf", 1, 128, 4)};
  launch_selection select;
  select.name = std::regex("^coalesced");
  const auto k = profile_kernels(launches, select);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name.rfind("coalesced", 0), 0u) << k[0].name;
}

// --skip and --count number the launches --kernel keeps, in the order they ended.
TEST(profile_report, skip_and_count_keep_a_window_of_the_selected_launches) {
  std::vector<trace::traced_launch> launches;
  for (std::uint64_t i = 0; i < 5; ++i) {
    launches.push_back(launch("other", 1, 128, 4));
    launches.push_back(launch("k", 1, 128, 4 + i));  // its i-th launch: 4 + i sectors
  }
  launch_selection select;
  select.name = std::regex("^k$");
  select.skip = 1;
  select.count = 2;
  const auto k = profile_kernels(launches, select);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].launches, 2u);
  EXPECT_EQ(k[0].counts.global_ld_sectors, 5u + 6u);
}

TEST(profile_report, an_untraced_launch_is_counted_apart_and_said) {
  trace::traced_launch failed = launch("k", 1, 128, 4);
  failed.error = "sanitizerPatchModule failed";
  failed.pcs.clear();
  const auto k = profile_kernels({launch("k", 1, 128, 4), failed}, {});
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].launches, 2u);
  EXPECT_EQ(k[0].untraced_launches, 1u);
  EXPECT_EQ(k[0].counts.global_ld_requests, 1u);
  std::ostringstream table;
  write_profile_table(table, k, {"./app", "exit 0", true, "tracer", "", ""});
  EXPECT_NE(table.str().find("1 of its launches could not be traced"), std::string::npos)
      << table.str();
}

TEST(profile_report, the_table_fits_120_columns_and_says_when_it_is_partial) {
  const auto k = profile_kernels(
      {launch("void very_long_templated_kernel_name<float, 128u, 8u>(float const*, float*, int)",
              123456789, 128, 987654321)},
      {});
  std::ostringstream table;
  write_profile_table(table, k, {"./app", "signal 11", false, "tracer", "", ""});
  std::istringstream lines(table.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
  EXPECT_NE(table.str().find("INCOMPLETE"), std::string::npos);
  EXPECT_NE(table.str().find("(signal 11)"), std::string::npos);
}

// A program's path can be long: the heading keeps to 120 columns, the witness on a line of its own.
TEST(profile_report, a_long_program_path_keeps_the_heading_within_120_columns) {
  const auto k = profile_kernels({launch("k", 1, 128, 4)}, {});
  std::ostringstream table;
  const std::string path = "/home/learner/cudalab/build/release/examples/" + std::string(90, 'p');
  write_profile_table(table, k, {path, "exit 0", true, "counters", "", ""});
  std::istringstream lines(table.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
  EXPECT_NE(table.str().find("\nwitness: CUPTI's SASS counters, a run a kernel\n"),
            std::string::npos)
      << table.str();
  std::ostringstream short_table;
  write_profile_table(short_table, k, {"./app", "exit 0", true, "tracer", "", ""});
  EXPECT_EQ(
      short_table.str().rfind("cudalab profile: ./app (exit 0); witness: the memory tracer", 0), 0u)
      << short_table.str();
}

TEST(profile_report, csv_quotes_the_names_and_json_keeps_every_count) {
  const auto k = profile_kernels({launch("f<\"a\", 2>", 2, 64, 8)}, {});
  std::ostringstream csv, json;
  write_profile_csv(csv, k);
  EXPECT_NE(csv.str().find("\"f<\"\"a\"\", 2>\",1,0,0,2,8,128,"), std::string::npos) << csv.str();
  write_profile_json(json, k, {"./app", "exit 3", true, "tracer", "", ""});
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["ended"], "exit 3");
  EXPECT_EQ(doc["witness"], "tracer");
  EXPECT_EQ(doc["kernels"][0]["ld_sectors"], 8);
  EXPECT_EQ(doc["kernels"][0]["ideal_sectors"], 4);
  EXPECT_EQ(doc["kernels"][0]["waste_sectors"], 4);
}

// --lines without line tables (no nvdisasm here, no saved code): each pc is its own line, under
// its own kernel, and the reason is said once, within 120 columns.
TEST(profile_report, lines_sit_under_their_kernel_and_say_why_they_have_no_source_line) {
  const std::vector<trace::traced_launch> launches{launch("strided", 10, 128, 320),
                                                   launch("coalesced", 10, 128, 40)};
  trace_cell selected;
  selected.available = true;
  selected.launches = selected_launches(launches, {});
  profile_lines lines;
  lines.lines = lines_of(selected, "", &lines.why_none);
  std::ostringstream out;
  write_profile_lines(out, profile_kernels(launches, {}), lines,
                      {"./app", "signal 6", false, "tracer", "", ""});
  const std::string text = out.str();
  const auto strided = text.find("\nstrided (1 launch)\n");
  const auto coalesced = text.find("\ncoalesced (1 launch)\n");
  ASSERT_NE(strided, std::string::npos) << text;
  ASSERT_NE(coalesced, std::string::npos) << text;
  EXPECT_LT(strided, coalesced) << "the most waste first";
  // Each kernel's one pc, as a line: 320 sectors for 10 requests under strided.
  EXPECT_NE(text.find("pc 0x0 (no line)", strided), std::string::npos) << text;
  EXPECT_LT(text.find("32.00", strided), coalesced) << text;
  EXPECT_NE(text.find("some accesses have no source line: nvdisasm not found"), std::string::npos)
      << text;
  EXPECT_NE(text.find("INCOMPLETE"), std::string::npos);
  std::istringstream rows(text);
  for (std::string row; std::getline(rows, row);) EXPECT_LE(row.size(), 120u) << row;
}

// --lines in csv (a row a line, the kernel and the line quoted) and json (a list a kernel, the
// reason for missing lines at the top).
TEST(profile_report, lines_as_csv_rows_and_as_a_json_list_under_each_kernel) {
  const std::vector<trace::traced_launch> launches{launch("strided", 10, 128, 320),
                                                   launch("coalesced", 10, 128, 40)};
  trace_cell selected;
  selected.available = true;
  selected.launches = launches;
  profile_lines lines;
  lines.lines = lines_of(selected, "", &lines.why_none);
  std::ostringstream csv, json;
  write_profile_lines_csv(csv, lines.lines);
  EXPECT_NE(csv.str().find("\n\"strided\",\"pc 0x0 (no line)\",10,320,0,0,1280,0,0,0\n"),
            std::string::npos)
      << csv.str();
  write_profile_json(json, profile_kernels(launches, {}),
                     {"./app", "exit 0", true, "tracer", "", ""}, &lines);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_NE(doc["no_source_line"].get<std::string>().find("nvdisasm"), std::string::npos);
  ASSERT_EQ(doc["kernels"][0]["kernel"], "strided");
  ASSERT_EQ(doc["kernels"][0]["lines"].size(), 1u);
  EXPECT_EQ(doc["kernels"][0]["lines"][0]["ld_sectors"], 320);
  EXPECT_EQ(doc["kernels"][1]["lines"][0]["ld_requests"], 10);
  // Without --lines, no lines key.
  std::ostringstream plain;
  write_profile_json(plain, profile_kernels(launches, {}),
                     {"./app", "exit 0", true, "tracer", "", ""});
  EXPECT_FALSE(nlohmann::json::parse(plain.str())["kernels"][0].contains("lines"));
}

// The counters witness: a line a kernel function with its launches summed; no bytes, so no ideal
// or waste ("-" in the table, empty in CSV, null in JSON); --kernel filters it; a function the
// runs could not measure keeps its launches as not counted.
TEST(profile_report, counters_rows_carry_their_launches_and_no_bytes) {
  trace::traced_launch strided = launch("strided", 10, 128, 320);
  strided.launches = 3;
  trace::traced_launch failed = launch("lost", 1, 128, 4);
  failed.error = "cuptiSassMetricsSetConfig failed";
  const auto counted = counted_kernels({strided, failed}, {});
  ASSERT_EQ(counted.size(), 2u);
  EXPECT_EQ(counted[0].name, "strided");
  EXPECT_EQ(counted[0].witness, profile_witness::counters);
  EXPECT_EQ(counted[0].launches, 3u);
  EXPECT_EQ(counted[0].counts.global_ld_sectors, 320u);
  EXPECT_FALSE(counted[0].bytes_known());
  EXPECT_EQ(counted[1].untraced_launches, 1u);
  launch_selection only_lost;
  only_lost.name = std::regex("^lost$");
  EXPECT_EQ(counted_kernels({strided, failed}, only_lost).size(), 1u);

  // Both witnesses: the tracer's row, then the counters' row under it.
  std::vector<kernel_profile> rows = profile_kernels({launch("strided", 10, 128, 320)}, {});
  rows.push_back(counted[0]);
  std::ostringstream table, csv, json;
  program_end end{"./app", "exit 0", true, "both", "", ""};
  write_profile_table(table, rows, end);
  EXPECT_NE(table.str().find("\nstrided "), std::string::npos) << table.str();
  const auto under = table.str().find("\n  counters ");
  ASSERT_NE(under, std::string::npos) << table.str();
  // ideal and waste unknown on the counters' row: "-" twice before the conflicts.
  const std::string counters_row =
      table.str().substr(under + 1, table.str().find('\n', under + 1) - under - 1);
  EXPECT_NE(counters_row.find(" - "), std::string::npos) << counters_row;
  EXPECT_NE(table.str().find("witness: the memory tracer, counters under it"), std::string::npos);
  // Why the counters' row has no ideal or waste is said where it is shown.
  EXPECT_NE(table.str().find("they have no bytes, so no ideal or waste"), std::string::npos);
  std::istringstream lines(table.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;

  write_profile_csv(csv, rows);
  EXPECT_NE(
      csv.str().find("\"strided\",1,0,0,10,320,1280,0,0,0,40,280,0,0,0,0,tracer,,,,0,,,,,,\n"),
      std::string::npos)
      << csv.str();
  EXPECT_NE(csv.str().find("\"strided\",3,0,0,10,320,,0,0,,,,0,0,0,0,counters,,,,0,,,,,,\n"),
            std::string::npos)
      << csv.str();
  write_profile_json(json, rows, end);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["witness"], "both");
  EXPECT_EQ(doc["kernels"][1]["witness"], "counters");
  EXPECT_TRUE(doc["kernels"][1]["waste_sectors"].is_null());
  EXPECT_EQ(doc["kernels"][0]["waste_sectors"], 280);

  // --lines with both witnesses: the lines are the tracer's, shown under its row only, once.
  trace_cell traced;
  traced.available = true;
  traced.launches = {launch("strided", 10, 128, 320)};
  profile_lines traced_lines;
  traced_lines.lines = lines_of(traced, "", &traced_lines.why_none);
  std::ostringstream by_line, by_line_json;
  write_profile_lines(by_line, rows, traced_lines, end);
  const std::string text = by_line.str();
  const auto heading = text.find("\nstrided (");
  ASSERT_NE(heading, std::string::npos) << text;
  EXPECT_EQ(text.find("\nstrided (", heading + 1), std::string::npos) << text;
  write_profile_json(by_line_json, rows, end, &traced_lines);
  const auto with_lines = nlohmann::json::parse(by_line_json.str());
  EXPECT_EQ(with_lines["kernels"][0]["lines"].size(), 1u);
  EXPECT_FALSE(with_lines["kernels"][1].contains("lines"));
}

// A kernel's launches keep their grid and block: one shape under its row in the table, as
// 3 dimensions in CSV and JSON; several shapes are counted ("varies" in CSV, null in JSON).
TEST(profile_report, a_kernel_shows_the_grid_and_block_it_was_launched_with) {
  trace::traced_launch a = launch("tiled", 10, 128, 40);
  a.grid = {32, 32, 1};
  a.block = {32, 8, 1};
  trace::traced_launch b = launch("other", 1, 128, 4);
  b.grid = {4096, 1, 1};
  b.block = {256, 1, 1};
  trace::traced_launch c = b;
  c.grid = {8192, 1, 1};
  const auto kernels = profile_kernels({a, b, c}, {});
  std::ostringstream table, csv, json;
  const program_end end{"./app", "exit 0", true, "tracer", "", ""};
  write_profile_table(table, kernels, end);
  EXPECT_NE(table.str().find("\n  grid 32x32, block 32x8\n"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("\n  launched with 2 grid and block shapes\n"), std::string::npos)
      << table.str();
  write_profile_csv(csv, kernels);
  EXPECT_NE(csv.str().find(",tracer,32x32x1,32x8x1,,0,,,,,,\n"), std::string::npos) << csv.str();
  EXPECT_NE(csv.str().find(",tracer,varies,varies,,0,,,,,,\n"), std::string::npos) << csv.str();
  write_profile_json(json, kernels, end);
  const auto doc = nlohmann::json::parse(json.str());
  for (const auto& k : doc["kernels"]) {
    if (k["kernel"] == "tiled") {
      EXPECT_EQ(k["grid"], nlohmann::json::array({32, 32, 1}));
      EXPECT_EQ(k["block"], nlohmann::json::array({32, 8, 1}));
    } else {
      EXPECT_TRUE(k["grid"].is_null());
    }
  }
}

// --nvtx keeps the launches made inside matching ranges; --skip and --count then number those.
TEST(profile_report, nvtx_selects_the_launches_made_inside_matching_ranges) {
  std::vector<trace::traced_launch> launches;  // launch i makes i + 1 requests: which one is told
  for (const char* range : {"warm-up", "train/step", "train/step", "eval", "train/step", ""}) {
    const std::uint64_t requests = launches.size() + 1;
    launches.push_back(launch("step", requests, 128, 4 * requests));
    launches.back().nvtx = range;
  }
  launch_selection train;
  train.nvtx = std::regex("^train/");
  EXPECT_EQ(profile_kernels(launches, train).at(0).launches, 3u);
  train.skip = 1;
  train.count = 1;
  const auto kept = selected_launches(launches, train);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].nvtx, "train/step");
  EXPECT_EQ(kept[0].pcs.at(0).instructions, 3u);  // the second train/step launch, launch 2
  launch_selection none;
  none.nvtx = std::regex("checkpoint");
  EXPECT_TRUE(profile_kernels(launches, none).empty());
}

// Each kernel's time from the timing run's launches, selected as the measured ones were; the
// counters' rows take their grid and block from those launches too. The table says a kernel's
// time (and a launch's, where there were several); CSV and JSON carry nanoseconds, none where
// the run was not timed, and the report says why.
TEST(profile_report, kernels_carry_the_time_of_their_selected_launches) {
  std::vector<trace::traced_launch> timed;
  for (std::uint64_t ns : {3000u, 5000u, 7000u}) {
    timed.push_back(launch("step", 0, 0, 0));
    timed.back().nanoseconds = ns;
    timed.back().grid = {128, 1, 1};
    timed.back().block = {256, 1, 1};
  }
  timed.push_back(launch("reduce", 0, 0, 0));
  timed.back().nanoseconds = 1'500'000;
  timed.back().grid = {1, 1, 1};
  timed.back().block = {1024, 1, 1};

  trace::traced_launch counted_step = launch("step", 10, 128, 40);
  counted_step.launches = 3;
  std::vector<kernel_profile> kernels = counted_kernels({counted_step}, {});
  attach_extra_run(kernels, timed, {});
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].nanoseconds, 15000u);
  EXPECT_EQ(kernels[0].timed_launches, 3u);
  ASSERT_EQ(kernels[0].shapes.size(), 1u);  // the counters' row takes the timed shape
  EXPECT_EQ(kernels[0].shapes.begin()->first[0], 128u);

  std::vector<trace::traced_launch> traced{launch("step", 1, 128, 4), launch("step", 1, 128, 4),
                                           launch("step", 1, 128, 4), launch("reduce", 1, 4, 1)};
  launch_selection window;
  window.skip = 1;
  window.count = 1;
  window.name = std::regex("step");
  std::vector<kernel_profile> picked = profile_kernels(traced, window);
  attach_extra_run(picked, timed, window);
  ASSERT_EQ(picked.size(), 1u);
  EXPECT_EQ(picked[0].nanoseconds, 5000u);  // the second launch, in both runs

  std::vector<kernel_profile> all = profile_kernels(traced, {});
  attach_extra_run(all, timed, {});
  std::ostringstream table, csv, json;
  const program_end end{"./app", "exit 0", true, "tracer", "", ""};
  write_profile_table(table, all, end);
  EXPECT_NE(table.str().find("; time 15.00 us (5.000 us a launch)\n"), std::string::npos)
      << table.str();
  EXPECT_NE(table.str().find("  grid 1, block 1024; time 1.500 ms\n"), std::string::npos)
      << table.str();
  write_profile_csv(csv, all);
  EXPECT_NE(csv.str().find(",128x1x1,256x1x1,15000,3,,,,,,\n"), std::string::npos) << csv.str();
  write_profile_json(json, all, end);
  for (const auto& k : nlohmann::json::parse(json.str())["kernels"])
    EXPECT_EQ(k["time_ns"], k["kernel"] == "step" ? 15000 : 1500000);

  // A timing run that saw other launches than the measured one says so under the row.
  std::vector<kernel_profile> fewer = profile_kernels(traced, {});
  attach_extra_run(fewer, {timed[0], timed[3]}, {});
  std::ostringstream differ;
  write_profile_table(differ, fewer, end);
  EXPECT_NE(differ.str().find("time 3.000 us (the timing run launched it 1 time)"),
            std::string::npos)
      << differ.str();

  program_end untimed = end;
  untimed.why_untimed = "--no-time";
  std::ostringstream none_table, none_csv, none_json;
  const std::vector<kernel_profile> bare = profile_kernels(traced, {});
  write_profile_table(none_table, bare, untimed);
  EXPECT_NE(none_table.str().find("(not measured: --no-time)"), std::string::npos)
      << none_table.str();
  EXPECT_EQ(none_table.str().find("; time"), std::string::npos) << none_table.str();
  write_profile_csv(none_csv, bare);
  EXPECT_NE(none_csv.str().find(",tracer,,,,0,,,,,,\n"), std::string::npos) << none_csv.str();
  write_profile_json(none_json, bare, untimed);
  const auto doc = nlohmann::json::parse(none_json.str());
  EXPECT_EQ(doc["untimed"], "--no-time");
  EXPECT_TRUE(doc["kernels"][0]["time_ns"].is_null());
}

// DRAM bytes and local traffic from the Range Profiler's run: summed a kernel, under its row (DRAM
// in decimal units, local where there is some), in CSV and JSON; a launch the run could not count
// (an error line) adds nothing.
TEST(profile_report, kernels_carry_the_range_profilers_counts_of_their_selected_launches) {
  std::vector<trace::traced_launch> counted;
  for (std::uint64_t read : {40'000'000u, 27'108'864u}) {
    counted.push_back(launch("transpose", 0, 0, 0));
    for (const trace::launch_counter& c : trace::launch_counters)
      counted.back().range_counts[c.column] = 0;
    counted.back().range_counts["dram_read_bytes"] = read;
    counted.back().range_counts["dram_write_bytes"] = 2048;
    counted.back().range_counts["local_st_requests"] = 1024;
    counted.back().range_counts["local_st_sectors"] = 4096;
  }
  counted.push_back(launch("transpose", 0, 0, 0));
  counted.back().error = "launched on another context than the first";
  std::vector<kernel_profile> kernels =
      profile_kernels({launch("transpose", 1, 128, 4), launch("transpose", 1, 128, 4),
                       launch("transpose", 1, 128, 4)},
                      {});
  attach_extra_run(kernels, counted, {});
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].range_count("dram_read_bytes"), 67'108'864u);
  EXPECT_EQ(kernels[0].range_count("dram_write_bytes"), 4096u);
  EXPECT_EQ(kernels[0].range_count("local_st_sectors"), 8192u);
  EXPECT_EQ(kernels[0].range_launches, 2u);
  std::ostringstream table, csv, json;
  const program_end end{"./app", "exit 0", true, "tracer", "", ""};
  write_profile_table(table, kernels, end);
  EXPECT_NE(
      table.str().find("  DRAM 67.1 MB read, 4.10 kB written (the DRAM run launched it 2 times)"),
      std::string::npos)
      << table.str();
  EXPECT_NE(table.str().find("\n  local 0 ld req (0 sect), 2,048 st req (8,192 sect)\n"),
            std::string::npos)
      << table.str();
  write_profile_csv(csv, kernels);
  EXPECT_NE(csv.str().find(",,0,67108864,4096,0,0,2048,8192\n"), std::string::npos) << csv.str();
  write_profile_json(json, kernels, end);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["kernels"][0]["dram_read_bytes"], 67108864);
  EXPECT_EQ(doc["kernels"][0]["local_st_requests"], 2048);

  program_end refused = end;
  refused.why_no_range_counts = "counters refused (ERR_NVGPUCTRPERM)";
  std::ostringstream refused_table, refused_json;
  const std::vector<kernel_profile> bare = profile_kernels({launch("transpose", 1, 128, 4)}, {});
  write_profile_table(refused_table, bare, refused);
  std::string joined = refused_table.str();  // the note may wrap
  std::replace(joined.begin(), joined.end(), '\n', ' ');
  EXPECT_NE(joined.find("(not measured: counters refused (ERR_NVGPUCTRPERM))"), std::string::npos)
      << refused_table.str();
  write_profile_json(refused_json, bare, refused);
  const auto refused_doc = nlohmann::json::parse(refused_json.str());
  EXPECT_TRUE(refused_doc["kernels"][0]["dram_read_bytes"].is_null());
  EXPECT_TRUE(refused_doc["kernels"][0]["local_ld_requests"].is_null());
  EXPECT_EQ(refused_doc["no_range_counts"], "counters refused (ERR_NVGPUCTRPERM)");
  std::istringstream lines(table.str() + refused_table.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
}

// The tracer's launches take their NVTX ranges from the timing run's, launch for launch; runs
// that launched other kernels cannot be matched, and say so.
TEST(profile_report, traced_launches_take_the_timing_runs_nvtx_ranges_launch_for_launch) {
  std::vector<trace::traced_launch> traced{launch("naive", 1, 128, 32), launch("tiled", 1, 128, 4)};
  std::vector<trace::traced_launch> timed{launch("naive", 0, 0, 0), launch("tiled", 0, 0, 0)};
  timed[0].nvtx = "main/naive";
  timed[1].nvtx = "main/tiled";
  copy_nvtx_ranges(traced, timed);
  EXPECT_EQ(traced[0].nvtx, "main/naive");
  EXPECT_EQ(traced[1].nvtx, "main/tiled");
  launch_selection tiled;
  tiled.nvtx = std::regex("tiled$");
  const auto kept = profile_kernels(traced, tiled);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].name, "tiled");

  std::vector<trace::traced_launch> swapped{timed[1], timed[0]};
  try {
    copy_nvtx_ranges(traced, swapped);
    ADD_FAILURE() << "runs that launched other kernels were matched";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("its launch 1 was of tiled, not naive"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(copy_nvtx_ranges(traced, {timed[0]}), error);
}

}  // namespace
}  // namespace cudalab::tool
