// Lab 02's grader on the CPU: rows whose "measured" counters are the access model's counts for
// a variant (local requests and sectors are exact on the hardware), so every rule runs without a
// GPU. The GPU half (check_test.cpp, grader_gpu_test.cpp) grades the real kernels.
#include "memory_grade.hpp"
#include "memory_lab.hpp"
#include "memory_model.hpp"

#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab::labs {
namespace {

constexpr std::size_t n = memory_default_size;
using memory_model::kernel;

result_row modelled(kernel k, bool correct = true, bool counters = true,
                    double extra_global_sectors = 0) {
  const model::access_counts c = memory_model::predict(k, n, 256, spill_step);
  result_row r;
  r.lab_id = "02-memory-spaces";
  r.variant_name = "exercise";
  r.config = launch_config{n, 256, 0};
  r.measured = true;
  r.verification = {correct, correct ? "max rel err 1e-07 <= 1e-05" : "16777216 of 16777216 wrong"};
  r.counters.available = counters;
  if (!counters) r.counters.reason = "no counter permission";
  r.counters.totals = {
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
       static_cast<double>(c.global_ld_sectors) + extra_global_sectors / 2},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
       static_cast<double>(c.global_st_sectors) + extra_global_sectors / 2},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", static_cast<double>(c.local_ld_sectors)},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", static_cast<double>(c.local_st_sectors)},
      {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", static_cast<double>(c.local_ld_requests)},
      {"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", static_cast<double>(c.local_st_requests)},
  };
  return r;
}

using testing::describe;

TEST(memory_grade, the_target_is_no_local_traffic) {
  const memory_targets t = memory_grade_targets(n, 256);
  EXPECT_EQ(t.local_ld_sectors, 0u);
  EXPECT_EQ(t.local_st_sectors, 0u);
  // x read once and out written once, 4 sectors a warp each.
  EXPECT_EQ(t.global_sectors, 2 * n / 8);
}

TEST(memory_grade, registers_passes_every_line) {
  const grade_report g = grade_memory(modelled(kernel::registers), {});
  EXPECT_TRUE(g.passed) << describe(g);
  ASSERT_EQ(g.lines.size(), 4u);
  for (const auto& line : g.lines) EXPECT_NE(line.find("  ok"), std::string::npos) << line;
}

TEST(memory_grade, local_spill_fails_both_traffic_lines_with_a_hint) {
  const grade_report g = grade_memory(modelled(kernel::local_spill), {});
  EXPECT_FALSE(g.passed) << describe(g);
  ASSERT_EQ(g.lines.size(), 4u);
  EXPECT_NE(g.lines[0].find("  ok"), std::string::npos);
  EXPECT_EQ(g.lines[1].rfind("local st sectors", 0), 0u);
  EXPECT_NE(g.lines[1].find("FAIL"), std::string::npos);
  EXPECT_EQ(g.lines[2].rfind("local ld sectors", 0), 0u);
  EXPECT_NE(g.lines[2].find("FAIL"), std::string::npos);
  EXPECT_NE(g.hint.find("STL"), std::string::npos);
  EXPECT_NE(g.lines[3].find("  ok"), std::string::npos) << describe(g);
}

// The array in a global scratch buffer: no local traffic, 128 more global sectors a warp.
TEST(memory_grade, an_array_in_global_memory_fails_on_global_sectors) {
  const double extra = 128.0 * (n / 32);
  const grade_report g = grade_memory(modelled(kernel::registers, true, true, extra), {});
  EXPECT_FALSE(g.passed) << describe(g);
  ASSERT_EQ(g.lines.size(), 4u);
  EXPECT_NE(g.lines[1].find("  ok"), std::string::npos);
  EXPECT_NE(g.lines[2].find("  ok"), std::string::npos);
  EXPECT_EQ(g.lines[3].rfind("global sectors", 0), 0u);
  EXPECT_NE(g.lines[3].find("FAIL"), std::string::npos);
  EXPECT_NE(g.hint.find("global"), std::string::npos);
}

TEST(memory_grade, a_wrong_sum_fails_even_without_local_traffic) {
  const grade_report g = grade_memory(modelled(kernel::registers, false), {});
  EXPECT_FALSE(g.passed);
  EXPECT_NE(g.lines[0].find("FAIL"), std::string::npos);
  EXPECT_FALSE(g.hint.empty());
}

TEST(memory_grade, without_counters_it_fails_and_says_why) {
  const grade_report g = grade_memory(modelled(kernel::registers, true, false), {});
  EXPECT_FALSE(g.passed);
  ASSERT_EQ(g.lines.size(), 2u);
  EXPECT_NE(g.lines[1].find("no counter permission"), std::string::npos);
  EXPECT_NE(g.hint.find("doctor"), std::string::npos);
}

}  // namespace
}  // namespace cudalab::labs
