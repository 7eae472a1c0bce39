// The trace file: a launch written by the injection library's formatter reads back the same,
// malformed lines are refused with a reason, and the totals fold loads, stores and shared
// accesses as the access model counts them (atomics left out, as the model leaves them out).
#include "cudalab/trace/trace_record.hpp"
#include "cudalab/check.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace cudalab::trace {
namespace {

traced_pc pc(std::uint64_t offset, model::memory_space space, traced_kind kind,
             std::uint64_t instructions, std::uint64_t sectors, std::uint64_t wavefronts,
             std::uint64_t ideal) {
  traced_pc p;
  p.offset = offset;
  p.space = space;
  p.kind = kind;
  p.width = 4;
  p.instructions = instructions;
  p.sectors = sectors;
  p.bytes = instructions * 128;
  p.wavefronts = wavefronts;
  p.ideal = ideal;
  return p;
}

traced_launch sample_launch() {
  traced_launch l;
  l.label = trace_point_label("aos_float3_staged", 1048577, 256, 0);
  l.kernel = "_Z24aos_float3_staged_kernelP6float3S0_fi";
  l.cubin = "/tmp/cudalab-trace-x/module-3.cubin";
  l.function_pc = 0x7f0000001000;
  l.function_size = 2048;
  l.pcs = {pc(0xd0, model::memory_space::global, traced_kind::load, 100, 400, 0, 0),
           pc(0x130, model::memory_space::global, traced_kind::store, 50, 200, 0, 0),
           pc(0x150, model::memory_space::shared, traced_kind::load, 30, 0, 90, 30),
           pc(0x170, model::memory_space::shared, traced_kind::store, 20, 0, 20, 20),
           pc(0x1a0, model::memory_space::global, traced_kind::atomic, 7, 7, 0, 0)};
  return l;
}

TEST(trace_record, a_formatted_launch_reads_back_the_same) {
  const traced_launch original = sample_launch();
  const traced_launch back = parse_traced_launch(format_traced_launch(original));
  EXPECT_EQ(back.label, original.label);
  EXPECT_EQ(back.kernel, original.kernel);
  EXPECT_EQ(back.cubin, original.cubin);
  EXPECT_EQ(back.function_pc, original.function_pc);
  EXPECT_EQ(back.function_size, original.function_size);
  ASSERT_EQ(back.pcs.size(), original.pcs.size());
  for (std::size_t i = 0; i < back.pcs.size(); ++i) {
    EXPECT_EQ(back.pcs[i].offset, original.pcs[i].offset);
    EXPECT_EQ(back.pcs[i].space, original.pcs[i].space);
    EXPECT_EQ(back.pcs[i].kind, original.pcs[i].kind);
    EXPECT_EQ(back.pcs[i].instructions, original.pcs[i].instructions);
    EXPECT_EQ(back.pcs[i].sectors, original.pcs[i].sectors);
    EXPECT_EQ(back.pcs[i].bytes, original.pcs[i].bytes);
    EXPECT_EQ(back.pcs[i].wavefronts, original.pcs[i].wavefronts);
    EXPECT_EQ(back.pcs[i].ideal, original.pcs[i].ideal);
  }
}

// A line a launch (the tracer) leaves the launch count out and reads back 1; the SASS metrics'
// line of a function writes how many launches it sums.
TEST(trace_record, the_launches_a_line_covers_read_back_and_default_to_one) {
  traced_launch l = sample_launch();
  EXPECT_EQ(format_traced_launch(l).find("\"launches\""), std::string::npos);
  EXPECT_EQ(parse_traced_launch(format_traced_launch(l)).launches, 1u);
  l.launches = 7;
  EXPECT_EQ(parse_traced_launch(format_traced_launch(l)).launches, 7u);
}

// The tracer writes each launch's grid and block; a line without them (the SASS metrics') reads
// back as unknown, and a shape that is not 3 positive counts is refused.
TEST(trace_record, a_launch_shape_reads_back_and_a_bad_one_is_refused) {
  traced_launch l = sample_launch();
  EXPECT_FALSE(parse_traced_launch(format_traced_launch(l)).shape_known());
  l.grid = {64, 64, 1};
  l.block = {32, 8, 1};
  const traced_launch back = parse_traced_launch(format_traced_launch(l));
  ASSERT_TRUE(back.shape_known());
  EXPECT_EQ(back.grid, l.grid);
  EXPECT_EQ(back.block, l.block);
  EXPECT_THROW(parse_traced_launch(R"({"label":"x","kernel":"k","grid":[1,2],"block":[1,1,1]})"),
               error);
  EXPECT_THROW(parse_traced_launch(R"({"label":"x","kernel":"k","grid":[1,0,1],"block":[1,1,1]})"),
               error);
}

// What `cudalab profile`'s further runs add to a launch: its NVTX ranges, its GPU time and the
// Range Profiler's counts, each read back (on an error line too, for the ranges); counts that are
// not counts are refused.
TEST(trace_record, a_launchs_ranges_time_and_range_counts_read_back) {
  traced_launch l = sample_launch();
  l.nvtx = "main/solver:step";
  l.nanoseconds = 86'210;
  l.range_counts = {{"dram_read_bytes", 67'108'864}, {"local_st_sectors", 0}};
  const traced_launch back = parse_traced_launch(format_traced_launch(l));
  EXPECT_EQ(back.nvtx, l.nvtx);
  EXPECT_EQ(back.nanoseconds, l.nanoseconds);
  EXPECT_EQ(back.range_counts, l.range_counts);
  const traced_launch bare = parse_traced_launch(format_traced_launch(sample_launch()));
  EXPECT_TRUE(bare.nvtx.empty());
  EXPECT_EQ(bare.nanoseconds, 0u);
  EXPECT_TRUE(bare.range_counts.empty());
  traced_launch failed;
  failed.label = "every launch";
  failed.kernel = "k";
  failed.error = "launched on another context than the first";
  failed.nvtx = "main";
  EXPECT_EQ(parse_traced_launch(format_traced_launch(failed)).nvtx, "main");
  EXPECT_THROW(parse_traced_launch(R"({"label":"x","kernel":"k","range_counts":[1,2]})"), error);
  EXPECT_THROW(parse_traced_launch(
                   R"({"label":"x","kernel":"k","range_counts":{"dram_read_bytes":"many"}})"),
               error);
  EXPECT_THROW(parse_traced_launch(R"({"label":"x","kernel":"k","nanoseconds":-5})"), error);
}

TEST(trace_record, an_error_line_carries_its_reason) {
  traced_launch failed;
  failed.label = "x|1|32|0";
  failed.kernel = "k";
  failed.error = "sanitizerPatchModule failed: SANITIZER_ERROR_NOT_SUPPORTED (14)";
  const traced_launch back = parse_traced_launch(format_traced_launch(failed));
  EXPECT_EQ(back.error, failed.error);
  EXPECT_TRUE(back.pcs.empty());
}

TEST(trace_record, totals_follow_the_access_model_and_leave_out_atomics) {
  const traced_launch l = sample_launch();
  const model::access_counts c = traced_counts({l, l});
  EXPECT_EQ(c.global_ld_requests, 2 * l.pcs[0].instructions);
  EXPECT_EQ(c.global_ld_sectors, 2 * l.pcs[0].sectors);
  EXPECT_EQ(c.global_st_requests, 2 * l.pcs[1].instructions);
  EXPECT_EQ(c.global_st_sectors, 2 * l.pcs[1].sectors);
  EXPECT_EQ(c.global_ld_bytes, 2 * l.pcs[0].bytes);
  EXPECT_EQ(c.shared_ld_instructions, 2 * l.pcs[2].instructions);
  EXPECT_EQ(c.shared_ld_wavefronts, 2 * l.pcs[2].wavefronts);
  EXPECT_EQ(c.shared_ld_conflicts, 2 * (l.pcs[2].wavefronts - l.pcs[2].ideal));
  EXPECT_EQ(c.shared_st_wavefronts, 2 * l.pcs[3].wavefronts);
  EXPECT_EQ(c.shared_st_conflicts, 0u);
}

TEST(trace_record, malformed_lines_are_refused_with_a_reason) {
  EXPECT_THROW(parse_traced_launch("not json"), error);
  EXPECT_THROW(parse_traced_launch(R"({"kernel": "k"})"), error);
  EXPECT_THROW(
      parse_traced_launch(R"({"label": "a", "pcs": [{"space": "local", "kind": "load"}]})"), error);
  EXPECT_THROW(
      parse_traced_launch(R"({"label": "a", "pcs": [{"space": "global", "kind": "copy"}]})"),
      error);
  EXPECT_THROW(
      parse_traced_launch(
          R"({"label": "a", "pcs": [{"space": "shared", "kind": "load", "wavefronts": 1, "ideal": 2}]})"),
      error);
  EXPECT_THROW(parse_traced_launch(R"({"label": "a", "dropped": "many"})"), error);
}

TEST(trace_record, a_missing_file_means_nothing_was_traced) {
  EXPECT_TRUE(read_trace_file("/nonexistent/cudalab/trace.jsonl").empty());
}

TEST(trace_record, a_file_reads_every_line_and_skips_blank_ones) {
  const std::string path = ::testing::TempDir() + "cudalab_trace_record_test.jsonl";
  {
    std::ofstream out(path);
    out << format_traced_launch(sample_launch()) << "\n\n"
        << format_traced_launch(sample_launch()) << "\n";
  }
  const auto launches = read_trace_file(path);
  std::remove(path.c_str());
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[1].pcs.size(), sample_launch().pcs.size());
}

TEST(trace_record, labels_name_variant_size_block_and_parameter) {
  EXPECT_EQ(trace_point_label("offset", 1024, 128, 8), "offset|1024|128|8");
  EXPECT_NE(trace_point_label("offset", 1024, 128, 8), trace_point_label("offset", 1024, 128, 9));
}

}  // namespace
}  // namespace cudalab::trace
