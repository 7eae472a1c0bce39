// Lab 04's checker on the CPU: rows whose "measured" counters are the access model's counts
// (what the H100 reports for these kernels, exactly), so every grading rule is exercised
// without a GPU. The GPU half (the generated tests of cmake/cudalab_graded_tests.cmake) grades the
// real exercise and solution.
#include "coalescing_lab.hpp"

#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace cudalab::labs {
namespace {

constexpr std::size_t n = std::size_t{1} << 20;

// Requested bytes default to 4-byte accesses by 32 lanes a request.
result_row row_with(const std::string& name, std::uint64_t ld_req, std::uint64_t ld_sect,
                    std::uint64_t st_req, std::uint64_t st_sect, bool correct = true,
                    std::uint64_t ld_bytes = 0, std::uint64_t st_bytes = 0) {
  result_row r;
  r.lab_id = "04-coalescing";
  r.variant_name = name;
  r.config = launch_config{n, 256, 0};
  r.measured = true;
  r.verification = {correct,
                    correct ? "max abs err 0 (exact), in place and out" : "out: 5 of 12 wrong"};
  r.counters.available = true;
  r.counters.totals = {
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", static_cast<double>(ld_req)},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", static_cast<double>(ld_sect)},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", static_cast<double>(st_req)},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", static_cast<double>(st_sect)},
      {"smsp__sass_data_bytes_mem_global_op_ld.sum",
       static_cast<double>(ld_bytes ? ld_bytes : 128 * ld_req)},
      {"smsp__sass_data_bytes_mem_global_op_st.sum",
       static_cast<double>(st_bytes ? st_bytes : 128 * st_req)},
  };
  return r;
}

// The model's counts at size n, computed once per kind (walking 2^20 numbers takes a moment).
const model::access_counts& predicted(coalescing_kind k) {
  static std::map<coalescing_kind, model::access_counts> cache;
  auto it = cache.find(k);
  if (it == cache.end())
    it = cache.emplace(k, predict_coalescing(k, launch_config{n, 256, 0})).first;
  return it->second;
}

// The ideal work the lab registers for a variant: a modelled row graded "as" the exercise
// carries the float3 array's, one graded as itself its own layout's.
work_counts registered_ideal(const std::string& variant) {
  static const lab l = make_lab_04_coalescing();
  return l.find(variant)->ideal(launch_config{n, 256, 0});
}

result_row modelled(coalescing_kind k, const std::string& name,
                    const std::string& as = "exercise") {
  const auto& c = predicted(k);
  result_row r = row_with(name, c.global_ld_requests, c.global_ld_sectors, c.global_st_requests,
                          c.global_st_sectors, true, c.global_ld_bytes, c.global_st_bytes);
  r.ideal = registered_ideal(as);
  return r;
}

const std::vector<result_row>& references() {
  static const std::vector<result_row> refs{
      modelled(coalescing_kind::aos_float3_staged, "aos_float3_staged", "aos_float3_staged"),
      modelled(coalescing_kind::aos_float4, "aos_float4", "aos_float4"),
      modelled(coalescing_kind::soa, "soa", "soa")};
  return refs;
}

std::string all_lines(const grade_report& g) { return testing::describe(g); }
using testing::expect_fails_only_on;
using testing::line_of;
constexpr const char* ld_per_request = "ld_sectors_per_request";
constexpr const char* st_per_request = "st_sectors_per_request";

TEST(coalescing_grade, staged_counts_pass) {
  const grade_report g =
      grade_coalescing(modelled(coalescing_kind::aos_float3_staged, "exercise"), references());
  EXPECT_TRUE(g.passed()) << all_lines(g);
  expect_fails_only_on(g, {});
  EXPECT_EQ(line_of(g, ld_per_request).measured, 4.0);
  EXPECT_EQ(line_of(g, ld_per_request).bound, 4.0);
}

TEST(coalescing_grade, naive_aos_float3_fails_every_counter_line_with_a_hint) {
  const grade_report g =
      grade_coalescing(modelled(coalescing_kind::aos_float3, "exercise"), references());
  expect_fails_only_on(g, {ld_per_request, st_per_request, "sectors"});
  EXPECT_EQ(line_of(g, ld_per_request).measured, 12.0);
  EXPECT_EQ(line_of(g, ld_per_request).bound, 4.0);
  EXPECT_NE(g.hint().find("12.0 sectors"), std::string::npos) << g.hint();
  EXPECT_NE(g.hint().find("3.00x"), std::string::npos)
      << g.hint();  // 9n/8 ld + 9n/4 st vs 3n/8 + 3n/4
}

TEST(coalescing_grade, a_kernel_reading_the_float3_array_as_float4s_passes) {
  // Each thread moves four float3 numbers as three 16-byte loads and stores: 16 sectors for
  // the 512 bytes of each request, and not a sector more than the data needs.
  const std::uint64_t ld_req = 3 * n / 4 / 32, st_req = 2 * ld_req;
  ASSERT_EQ(16 * ld_req, float3_ideal_ld_sectors(n));
  result_row ex = row_with("exercise", ld_req, 16 * ld_req, st_req, 16 * st_req, true, 512 * ld_req,
                           512 * st_req);
  ex.ideal = registered_ideal("exercise");
  const grade_report g = grade_coalescing(ex, references());
  EXPECT_TRUE(g.passed()) << all_lines(g);
  EXPECT_EQ(line_of(g, ld_per_request).measured, 16.0);
  EXPECT_EQ(line_of(g, ld_per_request).bound, 16.0);
}

TEST(coalescing_grade, wide_requests_spread_over_more_sectors_than_their_bytes_fail) {
  // 16-byte loads whose lanes sit 32 bytes apart: 32 sectors for 512 bytes a request.
  const std::uint64_t ld_req = 3 * n / 4 / 32, st_req = 2 * ld_req;
  const result_row ex = row_with("exercise", ld_req, 32 * ld_req, st_req, 32 * st_req, true,
                                 512 * ld_req, 512 * st_req);
  const grade_report g = grade_coalescing(ex, references());
  EXPECT_FALSE(g.passed());
  EXPECT_EQ(line_of(g, ld_per_request).measured, 32.0);
  EXPECT_EQ(line_of(g, ld_per_request).bound, 16.0);
  EXPECT_FALSE(line_of(g, ld_per_request).ok);
  EXPECT_FALSE(line_of(g, st_per_request).ok);
}

TEST(coalescing_grade, misaligned_coalescing_fails_on_total_sectors) {
  // The staged counts with one straddled sector more than the data needs (what a tile start
  // off a sector boundary costs): the total exceeds the ideal.
  const auto& staged = predicted(coalescing_kind::aos_float3_staged);
  const result_row ex =
      row_with("exercise", staged.global_ld_requests, staged.global_ld_sectors + 1,
               staged.global_st_requests, staged.global_st_sectors);
  const grade_report g = grade_coalescing(ex, references());
  EXPECT_FALSE(line_of(g, "sectors").ok) << all_lines(g);
}

TEST(coalescing_grade, a_wrong_result_fails_whatever_the_counters) {
  result_row ex = modelled(coalescing_kind::aos_float3_staged, "exercise");
  ex.verification = {false, "out: 5 of 3145728 wrong; first [7] = nan, expected 1.5"};
  const grade_report g = grade_coalescing(ex, references());
  expect_fails_only_on(g, {"correct"});
  EXPECT_NE(g.hint().find("tail block"), std::string::npos) << g.hint();
}

TEST(coalescing_grade, no_counters_is_a_fail_not_a_pass) {
  result_row ex = modelled(coalescing_kind::aos_float3_staged, "exercise");
  ex.counters = counter_cell{};
  ex.counters.reason = "counter access not permitted";
  const grade_report g = grade_coalescing(ex, references());
  EXPECT_FALSE(g.passed());
  EXPECT_NE(all_lines(g).find("counter access not permitted"), std::string::npos);
}

TEST(coalescing_grade, references_are_shown_for_comparison_and_do_not_decide) {
  // The rules compare the exercise with its own requested bytes and with the ideal, so a
  // reference without counters leaves the verdicts as they are and shows as n/a.
  std::vector<result_row> refs = references();
  for (auto& r : refs) r.counters = counter_cell{};
  const grade_report staged =
      grade_coalescing(modelled(coalescing_kind::aos_float3_staged, "exercise"), refs);
  EXPECT_TRUE(staged.passed()) << all_lines(staged);
  EXPECT_NE(line_of(staged, ld_per_request).text.find("references: n/a"), std::string::npos)
      << all_lines(staged);
  EXPECT_FALSE(grade_coalescing(modelled(coalescing_kind::aos_float3, "exercise"), refs).passed());
}

TEST(coalescing_grade, a_kernel_without_global_loads_fails) {
  const result_row ex = row_with("exercise", 0, 0, 0, 0);
  const grade_report g = grade_coalescing(ex, references());
  EXPECT_FALSE(g.passed());
}

TEST(coalescing_grade, every_fixed_float3_layout_passes_as_the_exercise_with_its_own_ideal) {
  // aos_float4 moves 16 bytes a number by design (its padding is the layout, not the kernel's
  // waste): graded against its own layout's sectors it passes, like staged and SoA.
  for (const auto& ref : references()) {
    const grade_report g = grade_coalescing(ref, references());
    EXPECT_TRUE(g.passed()) << ref.variant_name << "\n" << all_lines(g);
  }
}

TEST(coalescing_grade, float4_traffic_on_the_float3_array_fails_on_total_sectors) {
  // The same counts, as the exercise on the float3 array: a third more sectors than it needs.
  const result_row ex = modelled(coalescing_kind::aos_float4, "exercise");
  const grade_report g = grade_coalescing(ex, references());
  EXPECT_FALSE(line_of(g, "sectors").ok) << all_lines(g);
}

TEST(coalescing_grade, moving_the_array_a_byte_a_lane_fails_only_on_requests) {
  // A tile staged through shared memory one byte a lane: each warp-level access is 32
  // consecutive bytes, one sector, all of it asked for, and no sector is moved twice, so
  // lines 1-4 hold; but it needs four requests where a float a lane needs one.
  const std::uint64_t ld_sect = float3_ideal_ld_sectors(n), st_sect = float3_ideal_st_sectors(n);
  result_row ex =
      row_with("exercise", ld_sect, ld_sect, st_sect, st_sect, true, 32 * ld_sect, 32 * st_sect);
  ex.ideal = registered_ideal("exercise");
  const grade_report g = grade_coalescing(ex, references());
  expect_fails_only_on(g, {"requests"});
  EXPECT_NE(g.hint().find("32.0 bytes"), std::string::npos) << g.hint();
}

TEST(coalescing_grade, requests_pass_at_four_sectors_each_and_fail_one_above) {
  const std::uint64_t ld_sect = float3_ideal_ld_sectors(n), st_sect = float3_ideal_st_sectors(n);
  result_row ex = row_with("exercise", ld_sect / 4, ld_sect, st_sect / 4, st_sect);
  ex.ideal = registered_ideal("exercise");
  EXPECT_TRUE(grade_coalescing(ex, references()).passed())
      << all_lines(grade_coalescing(ex, references()));
  ex.counters.totals["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] += 1;
  ex.counters.totals["smsp__sass_data_bytes_mem_global_op_st.sum"] += 128;
  const grade_report g = grade_coalescing(ex, references());
  expect_fails_only_on(g, {"requests"});
}

TEST(coalescing_grade, its_counters_configure_offline_for_gh100_beside_the_labs_own) {
  testing::expect_grading_metrics_configure_offline(make_lab_04_coalescing());
}

}  // namespace
}  // namespace cudalab::labs
