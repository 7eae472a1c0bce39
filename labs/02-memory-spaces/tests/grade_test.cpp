// Lab 02's grader on the CPU: rows whose "measured" counters are the access model's counts for
// a variant (local requests and sectors are exact on the hardware), so every rule runs without a
// GPU. The GPU half (the generated tests of cmake/cudalab_graded_tests.cmake) grades the real
// kernels.
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
  EXPECT_TRUE(g.passed()) << describe(g);
  testing::expect_fails_only_on(g, {});
  EXPECT_EQ(g.lines.size(), 4u) << describe(g);
}

TEST(memory_grade, local_spill_fails_both_traffic_lines_with_a_hint) {
  const grade_report g = grade_memory(modelled(kernel::local_spill), {});
  EXPECT_FALSE(g.passed()) << describe(g);
  testing::expect_fails_only_on(g, {"local_st_sectors", "local_ld_sectors"});
  const grade_line st = testing::line_of(g, "local_st_sectors");
  EXPECT_EQ(st.relation, "<=");
  EXPECT_EQ(st.bound, 0.0);
  EXPECT_GT(st.measured.value_or(0), 0.0);
  EXPECT_NE(g.hint().find("STL"), std::string::npos);
}

// The array in a global scratch buffer: no local traffic, 128 more global sectors a warp.
TEST(memory_grade, an_array_in_global_memory_fails_on_global_sectors) {
  const double extra = 128.0 * (n / 32);
  const grade_report g = grade_memory(modelled(kernel::registers, true, true, extra), {});
  EXPECT_FALSE(g.passed()) << describe(g);
  testing::expect_fails_only_on(g, {"global_sectors"});
  EXPECT_EQ(testing::line_of(g, "global_sectors").measured,
            testing::line_of(g, "global_sectors").bound.value_or(0) + extra);
  EXPECT_NE(g.hint().find("global"), std::string::npos);
}

TEST(memory_grade, a_wrong_sum_fails_even_without_local_traffic) {
  const grade_report g = grade_memory(modelled(kernel::registers, false), {});
  testing::expect_fails_only_on(g, {"correct"});
  EXPECT_FALSE(g.hint().empty());
}

TEST(memory_grade, without_counters_it_fails_and_says_why) {
  const grade_report g = grade_memory(modelled(kernel::registers, true, false), {});
  EXPECT_FALSE(g.passed());
  EXPECT_NE(testing::line_of(g, "counters").text.find("no counter permission"), std::string::npos);
  EXPECT_NE(g.hint().find("doctor"), std::string::npos);
}

}  // namespace
}  // namespace cudalab::labs
