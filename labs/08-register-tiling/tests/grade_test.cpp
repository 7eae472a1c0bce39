// `cudalab check 08`'s grade on synthetic rows (no GPU): each line passes and fails on its own.
#include "regtile_grade.hpp"

#include "matmul_product.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

namespace {

using namespace cudalab;
using namespace cudalab::labs;

constexpr std::size_t n = 2001;

result_row row_with(const std::string& name, double ms, double lds_per_fma) {
  result_row r;
  r.variant_name = name;
  r.measured = true;
  r.ideal = matmul_ideal(n);
  r.time.median_ms = ms;
  r.verification = {true, "max err 1e-07"};
  r.counters.available = true;
  r.counters.totals[find_metric("shared_ld_inst")->cupti_name] = lds_per_fma * r.ideal.flops / 64;
  r.counters.totals[find_metric("ffma_thread_inst")->cupti_name] = r.ideal.flops / 2;
  r.counters.totals[find_metric("tensor_inst")->key()] = 0;
  return r;
}

TEST(regtile_grade, a_fast_register_tiled_kernel_passes_every_line) {
  const result_row cublas = row_with("cublas", 1.0, 0);
  const grade_report g = grade_regtile(row_with("exercise", 1.5, 0.07), {cublas});
  EXPECT_TRUE(g.passed());
  cudalab::testing::expect_fails_only_on(g, {});
  EXPECT_EQ(g.lines.size(), 5u);
}

TEST(regtile_grade, one_output_a_thread_fails_on_loads_per_fma) {
  const grade_report g =
      grade_regtile(row_with("exercise", 1.5, 1.25), {row_with("cublas", 1.0, 0)});
  cudalab::testing::expect_fails_only_on(g, {"lds_per_fma"});
  EXPECT_FALSE(g.hint().empty());
}

TEST(regtile_grade, a_slow_kernel_fails_on_speed_against_cublas_in_the_same_run) {
  const double slowest = 1.0 / regtile_cublas_fraction_target;
  const grade_report g =
      grade_regtile(row_with("exercise", slowest * 1.01, 0.07), {row_with("cublas", 1.0, 0)});
  cudalab::testing::expect_fails_only_on(g, {"speed"});
  const grade_report just =
      grade_regtile(row_with("exercise", slowest * 0.99, 0.07), {row_with("cublas", 1.0, 0)});
  EXPECT_TRUE(just.passed());
}

TEST(regtile_grade, speed_timed_under_the_tracer_is_not_a_figure) {
  // Under the tracer (check's fallback) cuBLAS and the exercise both run patched: however fast
  // the exercise reads there, the speed line is n/a and fails.
  result_row ex = row_with("exercise", 1.0, 0.07), cublas = row_with("cublas", 1.0, 0);
  ex.counters.from_trace = cublas.counters.from_trace = true;
  const grade_report g = grade_regtile(ex, {cublas});
  cudalab::testing::expect_fails_only_on(g, {"speed"});
  const grade_line speed = cudalab::testing::line_of(g, "speed");
  EXPECT_EQ(speed.text.rfind("speed n/a: timed under the memory tracer", 0), 0u) << speed.text;
}

TEST(regtile_grade, a_wrong_product_or_a_missing_cublas_row_fails) {
  result_row wrong = row_with("exercise", 1.0, 0.07);
  wrong.verification = {false, "3 of 4004001 outputs wrong"};
  EXPECT_FALSE(grade_regtile(wrong, {row_with("cublas", 1.0, 0)}).passed());
  EXPECT_FALSE(grade_regtile(row_with("exercise", 1.0, 0.07), {}).passed());
}

}  // namespace

namespace {

using cudalab::testing::line_fails;
using cudalab::testing::line_of;

TEST(regtile_grade, a_product_on_the_tensor_cores_fails_on_ffma_and_tensor_lines) {
  // A TF32 wmma product: fast, few shared loads a multiply-add, its multiply-adds HMMAs.
  result_row ex = row_with("exercise", 0.5, 0.05);
  ex.counters.totals[find_metric("ffma_thread_inst")->cupti_name] = 0.02 * ex.ideal.flops / 2;
  ex.counters.totals[find_metric("tensor_inst")->key()] = 1.0e6;
  const grade_report g = grade_regtile(ex, {row_with("cublas", 1.0, 0)});
  EXPECT_FALSE(g.passed());
  EXPECT_TRUE(line_fails(g, "ffma"));
  EXPECT_TRUE(line_fails(g, "tensor_inst"));
  EXPECT_EQ(line_of(g, "tensor_inst").measured, 1.0e6);
  EXPECT_EQ(line_of(g, "tensor_inst").bound, 0.0);
  EXPECT_NE(g.hint().find("tensor-core"), std::string::npos);
}

TEST(regtile_grade, more_ffma_than_n_cubed_passes_the_arithmetic_lines) {
  // Tiles past an odd n multiply zeros: more FFMAs than n^3 is the padding, not a fault.
  result_row ex = row_with("exercise", 1.5, 0.07);
  ex.counters.totals[find_metric("ffma_thread_inst")->cupti_name] = 1.02 * ex.ideal.flops / 2;
  EXPECT_TRUE(grade_regtile(ex, {row_with("cublas", 1.0, 0)}).passed());
}

TEST(regtile_grade, missing_arithmetic_counters_say_n_a_and_fail) {
  result_row ex = row_with("exercise", 1.5, 0.07);
  ex.counters.totals.erase(find_metric("tensor_inst")->key());
  const grade_report g = grade_regtile(ex, {row_with("cublas", 1.0, 0)});
  EXPECT_FALSE(g.passed());
  EXPECT_TRUE(line_fails(g, "tensor_inst"));
  EXPECT_FALSE(line_of(g, "tensor_inst").measured.has_value());
}

TEST(regtile_grade, a_chip_that_cannot_count_tensor_arithmetic_leaves_it_to_the_ffma_line) {
  result_row ex = row_with("exercise", 1.5, 0.07);
  ex.counters.totals.erase(find_metric("tensor_inst")->key());
  ex.counters.missing[find_metric("tensor_inst")->key()] = "not on AD102";
  const grade_report g = grade_regtile(ex, {row_with("cublas", 1.0, 0)});
  EXPECT_TRUE(g.passed());
  EXPECT_EQ(line_of(g, "tensor_inst").text.rfind("tensor-core instructions n/a (not on AD102)", 0),
            0u);
}

}  // namespace
