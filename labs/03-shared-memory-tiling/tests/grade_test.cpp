// Lab 03's grader on the CPU: rows whose "measured" counters are the access model's counts for
// a variant (exact for every count the grader reads; the data stage's own shared counters get an
// excess added, as the hardware's do), so every rule is exercised without a GPU. The GPU half
// (the generated tests of cmake/cudalab_graded_tests.cmake) grades the real kernels.
#include "matmul_grade.hpp"
#include "matmul_lab.hpp"
#include "matmul_model.hpp"
#include "matmul_product.hpp"
#include "matmul_variants.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/testing/grade_checks.hpp"
#include "cudalab/testing/shared_counts.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab::labs {
namespace {

constexpr std::size_t n = matmul_default_side;
using matmul_model::kernel;
using testing::describe;
using testing::line_fails;

// The product `k` at tile (or block) `shape` as the exercise, measured as the model predicts it,
// with `extra_conflicts` real conflicts on loads and on stores beyond the model's.
// Its arithmetic: every multiply-add an FFMA (n^3, thread-level), none on the tensor cores.
result_row modelled(kernel k, unsigned shape, double extra_conflicts = 0.0, bool correct = true) {
  result_row r = testing::modelled_exercise_row(
      "03-shared-memory-tiling", n, matmul_model::predict(k, n, shape), extra_conflicts,
      verify_result{correct, correct ? "max err 1.0e-07 <= 6.0e-05 of sum |a b|"
                                     : "1002001 of 1002001 outputs wrong"});
  r.ideal = matmul_ideal(n);
  r.counters.totals[find_metric("ffma_thread_inst")->cupti_name] = r.ideal.flops / 2;
  r.counters.totals[find_metric("tensor_inst")->key()] = 0;
  return r;
}

TEST(matmul_grade, tiled_at_every_tile_passes_every_line) {
  for (unsigned t : {16u, 32u}) {
    const grade_report g = grade_matmul(modelled(kernel::tiled, t), {});
    EXPECT_TRUE(g.passed()) << "T=" << t << "\n" << describe(g);
    EXPECT_EQ(g.lines.size(), 6u);
  }
}

TEST(matmul_grade, the_target_is_the_16_tile_so_an_8_tile_reads_too_much) {
  const grade_report g = grade_matmul(modelled(kernel::tiled, 8), {});
  EXPECT_FALSE(g.passed()) << describe(g);
  EXPECT_TRUE(line_fails(g, "ld_sectors"));
}

TEST(matmul_grade, naive_fails_on_load_sectors_with_a_hint) {
  const grade_report g = grade_matmul(modelled(kernel::naive, 256), {});
  EXPECT_FALSE(g.passed()) << describe(g);
  EXPECT_TRUE(line_fails(g, "ld_sectors"));
  EXPECT_FALSE(line_fails(g, "st_sectors"));
  EXPECT_FALSE(line_fails(g, "shared_conflicts"));  // no shared memory, no conflict
  EXPECT_NE(g.hint().find("tiles"), std::string::npos) << g.hint();
}

TEST(matmul_grade, store_in_loop_fails_on_store_sectors) {
  const grade_report g = grade_matmul(modelled(kernel::tiled_store_in_loop, fixed_tile), {});
  EXPECT_FALSE(g.passed()) << describe(g);
  EXPECT_TRUE(line_fails(g, "st_sectors"));
  EXPECT_FALSE(line_fails(g, "ld_sectors"));
  EXPECT_NE(g.hint().find("once"), std::string::npos) << g.hint();
}

TEST(matmul_grade, a_wrong_product_fails_on_correctness) {
  const grade_report g = grade_matmul(modelled(kernel::tiled, fixed_tile, 0, false), {});
  EXPECT_FALSE(g.passed());
  EXPECT_TRUE(line_fails(g, "correct"));
}

// The data stage's excess (a quarter of the wavefronts here) is not a conflict; one real
// conflict beyond the tiled product's is.
TEST(matmul_grade, one_conflict_fails_and_the_data_stage_excess_does_not) {
  const grade_report exact = grade_matmul(modelled(kernel::tiled, fixed_tile), {});
  EXPECT_TRUE(exact.passed()) << describe(exact);
  const grade_report one_more = grade_matmul(modelled(kernel::tiled, fixed_tile, 1), {});
  EXPECT_FALSE(one_more.passed());
  EXPECT_TRUE(line_fails(one_more, "shared_conflicts"));
}

// A TF32 wmma product stages the same tiles: its traffic passes, its arithmetic does not.
TEST(matmul_grade, tensor_core_instructions_fail_and_so_do_too_few_ffmas) {
  result_row tensor = modelled(kernel::tiled, fixed_tile);
  tensor.counters.totals[find_metric("tensor_inst")->key()] = 1;
  testing::expect_fails_only_on(grade_matmul(tensor, {}), {"tensor_inst"});
  result_row fewer = modelled(kernel::tiled, fixed_tile);
  fewer.counters.totals[find_metric("ffma_thread_inst")->cupti_name] = 0.99 * fewer.ideal.flops / 2;
  testing::expect_fails_only_on(grade_matmul(fewer, {}), {"ffma"});
}

// The tracer sees memory accesses, not instructions: one line says so and passes.
TEST(matmul_grade, under_the_tracer_the_arithmetic_is_not_graded) {
  result_row traced = modelled(kernel::tiled, fixed_tile);
  traced.counters.from_trace = true;
  traced.counters.totals.erase(find_metric("ffma_thread_inst")->cupti_name);
  traced.counters.totals.erase(find_metric("tensor_inst")->key());
  const grade_report g = grade_matmul(traced, {});
  EXPECT_TRUE(g.passed()) << describe(g);
  ASSERT_NE(g.find("ffma"), nullptr);
  EXPECT_NE(g.find("ffma")->text.find("n/a"), std::string::npos);
  EXPECT_EQ(g.find("tensor_inst"), nullptr);
}

TEST(matmul_grade, without_counters_it_fails_and_says_why) {
  testing::expect_fails_without_counters_and_says_why(modelled(kernel::tiled, fixed_tile),
                                                      grade_matmul);
}

TEST(matmul_grade, targets_are_the_models_tiled_figures) {
  const matmul_targets t = matmul_grade_targets(n);
  const model::access_counts c = matmul_model::predict(kernel::tiled, n, fixed_tile);
  EXPECT_EQ(t.ld_sectors, c.global_ld_sectors);
  EXPECT_EQ(t.st_sectors, c.global_st_sectors);
}

}  // namespace
}  // namespace cudalab::labs
