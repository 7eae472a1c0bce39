// Lab 05's grader on the CPU: synthetic rows at the exercise's size (2^22 floats, 256 threads
// a block, 16,384 blocks), built from the per-block counts of the access model's table for
// sequential addressing, so that each line can be moved across its boundary alone. The GPU
// half (the generated tests of cmake/cudalab_graded_tests.cmake) grades real kernels.
#include "reduction_grade.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"

#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>

namespace cudalab::labs {
lab make_lab_05_reduction();
namespace {

constexpr double blocks = 16384;

// Counts a block of 256 threads issues in sequential addressing (the model's table in the
// README): 25 load and 20 store wavefronts, one global store.
struct counts {
  double thread_efficiency = 31.70;
  double ld_wavefronts = 25 * blocks, st_wavefronts = 20 * blocks;
  double ld_conflicts = 0, st_conflicts = 0;
  // The data stage's wavefronts beyond the SASS-level ones, which it also counts as conflicts.
  double pipe_ld_excess = 4000, pipe_st_excess = 4000;
  double st_requests = blocks, red_requests = 0, atom_requests = 0;
  double ctas = blocks;
  double divergent_branches = 0;  // sequential's steps are predicated: no branch splits
  double gbps = 800;
  bool correct = true;
};

result_row row_of(const std::string& name, const counts& c) {
  result_row r;
  r.lab_id = "05-reduction";
  r.variant_name = name;
  r.config = launch_config{std::size_t{1} << 22, 256, 0};
  r.measured = true;
  r.gbps = c.gbps;
  r.verification = {c.correct,
                    c.correct ? "blocks: max rel err 1.7e-07 <= 1e-05" : "block 3: 7 != 9"};
  r.counters.available = true;
  r.counters.totals = {
      {"smsp__average_thread_inst_executed_per_inst_executed.ratio", c.thread_efficiency},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c.ld_wavefronts},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", c.st_wavefronts},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c.ld_wavefronts + c.pipe_ld_excess},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", c.st_wavefronts + c.pipe_st_excess},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
       c.ld_conflicts + c.pipe_ld_excess},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
       c.st_conflicts + c.pipe_st_excess},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", c.st_requests},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", c.red_requests},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", c.atom_requests},
      {"sm__ctas_launched.sum", c.ctas},
      {"smsp__sass_branch_targets_threads_divergent.sum", c.divergent_branches},
  };
  return r;
}

// A kernel's counts as an H200 measured them at 2^24 floats: the SASS-level shared load and
// store wavefronts, the data stage's excess over each, `blocks_launched` blocks storing once
// each, and the bandwidth; what was not read keeps the table's figure.
counts measured_at_2_24(std::pair<double, double> ld_st_wavefronts,
                        std::pair<double, double> ld_st_pipe_excess, double blocks_launched,
                        double gbps) {
  counts c;
  std::tie(c.ld_wavefronts, c.st_wavefronts) = ld_st_wavefronts;
  std::tie(c.pipe_ld_excess, c.pipe_st_excess) = ld_st_pipe_excess;
  c.st_requests = c.ctas = blocks_launched;
  c.gbps = gbps;
  return c;
}

std::vector<result_row> sequential_reference() {
  result_row r = row_of("sequential", counts{});
  r.predicted = model::access_counts{};  // the model's conflicts for sequential: none
  return {r};
}

grade_report grade(const counts& c) {
  return grade_reduction(row_of("exercise", c), sequential_reference());
}

std::string all_lines(const grade_report& g) { return testing::describe(g); }

bool ok(const grade_line& line) { return line.ok; }
using testing::line_of;

// Fails the test unless exactly the line `key` fails.
void expect_only_failure(const grade_report& g, const char* key) {
  testing::expect_fails_only_on(g, {key});
  EXPECT_FALSE(g.hint().empty());
}

// The line `label` passes with `field` at `share` of sequential's and fails one step below.
void expect_pass_at_share_and_failure_below(double counts::*field, double share,
                                            const char* label) {
  counts c;
  c.*field = share * (counts{}.*field);
  EXPECT_TRUE(grade(c).passed()) << all_lines(grade(c));
  // A millionth below: the bound forgives the rounding of a quotient, not a real shortfall.
  c.*field *= 1 - 1e-6;
  expect_only_failure(grade(c), label);
}

TEST(reduction_grade, sequential_counts_pass_all_six_lines) {
  const grade_report g = grade(counts{});
  EXPECT_TRUE(g.passed()) << all_lines(g);
  ASSERT_EQ(g.lines.size(), 6u);
  testing::expect_fails_only_on(g, {});
  EXPECT_TRUE(g.hint().empty());
}

TEST(reduction_grade, divergent_branches_pass_at_a_split_a_warp_plus_five_and_fail_above) {
  // 256 threads: 8 warps, so 13 splits a block at the most.
  counts c;
  c.divergent_branches = 13 * blocks;
  EXPECT_TRUE(grade(c).passed()) << all_lines(grade(c));
  c.divergent_branches += 1;
  expect_only_failure(grade(c), "divergent_branches");
}

TEST(reduction_grade, the_divergent_tree_fails_on_its_47_splits_a_block) {
  // interleaved_divergent's splits as the divergence model and the H100 count them.
  counts c;
  c.divergent_branches = 47 * blocks;
  const grade_report g = grade(c);
  expect_only_failure(g, "divergent_branches");
  EXPECT_NE(g.hint().find("47.0 splits a block"), std::string::npos) << g.hint();
}

TEST(reduction_grade, a_noinline_step_with_fewer_threads_per_instruction_passes) {
  // sequential with its step in a __noinline__ helper: the calls split warp 0 at the five
  // halvings below 32 (81,920 at 2^22 on an H100 and an H200) and lower threads per instruction
  // (29.5 on an H200, where the predicated tree reads 31.70); nothing else
  // changes. The lesson is met.
  counts c;
  c.divergent_branches = 5 * blocks;
  c.thread_efficiency = 29.5;
  EXPECT_TRUE(grade(c).passed()) << all_lines(grade(c));
}

TEST(reduction_grade, conflicts_pass_at_none_and_fail_at_one) {
  counts c;
  EXPECT_TRUE(grade(c).passed()) << all_lines(grade(c));
  c.ld_conflicts += 1;
  c.ld_wavefronts += 1;
  expect_only_failure(grade(c), "shared_conflicts");
}

TEST(reduction_grade, a_shuffle_solution_with_the_data_stage_excess_passes) {
  // warp_shuffle and sequential as an H200 measured them at 2^24: the SASS-level wavefronts
  // equal the model with no conflict, while the data stage counted 13,230 + 46,422 more for
  // warp_shuffle (6.5% of them), all as conflicts. Only the SASS-level count is graded.
  counts shuffle = measured_at_2_24({458752, 458752}, {13230, 46422}, 32768, 1920.5);
  shuffle.thread_efficiency = 31.64;
  const counts sequential = measured_at_2_24({1638400, 1310720}, {39380, 44749}, 65536, 828.6);
  result_row reference = row_of("sequential", sequential);
  reference.predicted = model::access_counts{};
  const grade_report g = grade_reduction(row_of("exercise", shuffle), {reference});
  EXPECT_TRUE(g.passed()) << all_lines(g);
}

TEST(reduction_grade, shared_wavefronts_pass_at_the_share_and_fail_above) {
  counts c;
  const double reference = c.ld_wavefronts + c.st_wavefronts;
  c.ld_wavefronts = reduction_max_wavefront_share * reference - c.st_wavefronts;
  EXPECT_TRUE(grade(c).passed()) << all_lines(grade(c));
  c.ld_wavefronts += 1;
  expect_only_failure(grade(c), "shared_wavefronts");
}

// One write a block of sequential's, and one to finish the sum in a second pass; one more fails.
TEST(reduction_grade, one_global_write_a_block_and_one_to_finish_pass_and_one_more_fails) {
  counts c;
  c.st_requests = blocks + 1;
  EXPECT_TRUE(grade(c).passed());
  c.red_requests = 1;
  expect_only_failure(grade(c), "global_writes");
  c.red_requests = 0;
  c.atom_requests = 1;
  expect_only_failure(grade(c), "global_writes");
}

TEST(reduction_grade, atomic_block_sums_fail_only_on_global_writes) {
  // What the H100 measured for a kernel that atomicAdds every element into its block's sum:
  // full warps, no shared traffic, no conflicts. A REDG a warp (8 a block) and the store that
  // zeroes the sum: 9 writes a block.
  counts c;
  c.thread_efficiency = 32.0;
  c.ld_wavefronts = c.st_wavefronts = 0;
  c.red_requests = 8 * blocks;
  c.st_requests = blocks;
  const grade_report g = grade(c);
  expect_only_failure(g, "global_writes");
  EXPECT_NE(line_of(g, "global_writes").text.find("9.00 a block"), std::string::npos)
      << all_lines(g);
  EXPECT_NE(g.hint().find("shared memory"), std::string::npos) << g.hint();
}

TEST(reduction_grade, a_second_pass_or_one_atomic_a_block_counts_its_own_blocks) {
  counts two_pass;  // the finishing kernel is one more block with one more store
  two_pass.st_requests = blocks + 1;
  two_pass.ctas = blocks + 1;
  EXPECT_TRUE(grade(two_pass).passed()) << all_lines(grade(two_pass));
  counts grid_stride;  // 1,024 blocks, each adding its sum into the total with one REDG
  grid_stride.ctas = 1024;
  grid_stride.st_requests = 0;
  grid_stride.red_requests = 1024;
  grid_stride.ld_wavefronts = 1024;
  grid_stride.st_wavefronts = 8458;
  EXPECT_TRUE(grade(grid_stride).passed()) << all_lines(grade(grid_stride));
}

TEST(reduction_grade, bandwidth_passes_at_the_share_of_sequential_and_fails_below) {
  expect_pass_at_share_and_failure_below(&counts::gbps, reduction_min_bandwidth_share, "bandwidth");
}

TEST(reduction_grade, a_wrong_sum_fails_whatever_the_counters) {
  counts c;
  c.correct = false;
  const grade_report g = grade(c);
  expect_only_failure(g, "correct");
  EXPECT_NE(g.hint().find("exactly once"), std::string::npos) << g.hint();
}

TEST(reduction_grade, missing_counters_fail_every_counter_line) {
  result_row ex = row_of("exercise", counts{});
  ex.counters = counter_cell{};
  const grade_report g = grade_reduction(ex, sequential_reference());
  EXPECT_FALSE(g.passed());
  // Correctness needs no counters; every counter line says n/a.
  testing::expect_fails_only_on(
      g, {"divergent_branches", "shared_conflicts", "shared_wavefronts", "global_writes"});
  for (const char* key :
       {"divergent_branches", "shared_conflicts", "shared_wavefronts", "global_writes"})
    EXPECT_NE(line_of(g, key).text.find("n/a"), std::string::npos) << key;
}

TEST(reduction_grade, without_a_reference_nothing_passes_by_default) {
  const grade_report g = grade_reduction(row_of("exercise", counts{}), {});
  EXPECT_FALSE(g.passed()) << all_lines(g);
  EXPECT_FALSE(ok(line_of(g, "shared_wavefronts")));
  EXPECT_FALSE(ok(line_of(g, "bandwidth")));
}

TEST(reduction_grade, bandwidth_timed_under_the_tracer_is_not_a_figure) {
  // check's fallback where counters are refused times every kernel patched by the tracer: the
  // bandwidth is not the learner's, whatever the reference reads, and the line says so.
  result_row ex = row_of("exercise", counts{});
  ex.counters.from_trace = true;
  std::vector<result_row> references = sequential_reference();
  references.front().counters.from_trace = true;
  const grade_report g = grade_reduction(ex, references);
  EXPECT_FALSE(g.passed());
  const grade_line line = line_of(g, "bandwidth");
  EXPECT_NE(line.text.find("n/a: timed under the memory tracer"), std::string::npos) << line.text;
  EXPECT_FALSE(ok(line));
}

// An atomic sum spread over eight times the blocks, each writing once: one write a block of its
// own grid, eight a block of sequential's. The bound is sequential's blocks, so padding the grid
// with blocks dilutes nothing.
TEST(reduction_grade, more_blocks_do_not_raise_the_bounds) {
  counts c;
  c.ctas = 8 * blocks;
  c.st_requests = 0;
  c.red_requests = 8 * blocks;
  const grade_report g = grade(c);
  EXPECT_FALSE(line_of(g, "global_writes").ok) << all_lines(g);
  EXPECT_EQ(line_of(g, "global_writes").bound, blocks + 1);
  EXPECT_EQ(line_of(g, "divergent_branches").bound, blocks * (8 + 5));
}

TEST(reduction_grade, its_counters_configure_offline_for_gh100_beside_the_labs_own) {
  testing::expect_grading_metrics_configure_offline(make_lab_05_reduction());
}

}  // namespace
}  // namespace cudalab::labs
