// Lab 06's registration and host data on the CPU: the variants and their roles, the shapes the
// launchers accept and refuse, the exercise's grading setup, and the inputs and the check.
#include "transpose_data.hpp"
#include "transpose_lab.hpp"
#include "transpose_variants.hpp"

#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/registration_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

// This test binary registers lab 06 alone (lab::find and the grader's helpers live beside
// find_lab, which asks for the registry).
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_06_bank_conflicts)

namespace cudalab::labs {
namespace {

namespace data = transpose_data;
namespace tr = transpose;

TEST(transpose_lab, registers_each_variant_with_its_role) {
  const lab l = make_lab_06_bank_conflicts();
  testing::expect_variant_roles(
      l,
      {{variant_role::baseline, {"copy", "copy_restrict"}},
       {variant_role::naive,
        {"naive_row_read", "naive_col_read", "shared_tile", "shared_tile_double", "shared_stride"}},
       {variant_role::fixed,
        {"padded", "swizzled", "tile_rows", "tile64_rows", "tile64_vec4", "tile64_vec4_row_order",
         "padded_double"}},
       {variant_role::exercise, {"exercise"}}});
  ASSERT_TRUE(l.find("shared_stride")->sweep);
  const sweep_spec& sweep = *l.find("shared_stride")->sweep;
  EXPECT_EQ(sweep.name, "stride");
  EXPECT_EQ(sweep.min, 1);
  EXPECT_EQ(sweep.max, 32);
  EXPECT_TRUE(sweep.accepts(7));
  EXPECT_FALSE(sweep.accepts(0));
  EXPECT_FALSE(sweep.accepts(33));
  // The default side is a multiple of no tile, so every guard runs; the benchmark's side fits.
  EXPECT_NE(l.default_size % tr::tile_dim, 0u);
  EXPECT_GE(l.max_size, 8192u);
}

TEST(transpose_lab, every_modelled_variant_predicts_the_default_run_cheaply) {
  const lab l = make_lab_06_bank_conflicts();
  for (const variant& v : l.variants) {
    if (v.role == variant_role::exercise) {
      EXPECT_FALSE(v.predict);  // the learner's kernel has no model
      continue;
    }
    ASSERT_TRUE(v.predict) << v.name;
    const launch_config c{l.default_size, 256, v.sweep ? 4 : 0};
    EXPECT_GT(v.predict(c).global_ld_requests, 0u) << v.name;
    EXPECT_LT(v.model_cost(c), 2e4) << v.name;
    EXPECT_LT(v.model_cost(launch_config{8192, 256, v.sweep ? 32 : 0}), 2e4) << v.name;
  }
}

TEST(transpose_lab, the_default_metrics_hold_the_lessons_counters) {
  const lab l = make_lab_06_bank_conflicts();
  const auto collected = resolve_metric_names(l.default_metrics);
  for (const char* name : {"ld_sectors", "st_sectors", "shared_ld_wavefronts",
                           "shared_st_conflicts", "dram_read_bytes", "l2_sectors_from_l1"}) {
    for (const std::string& cupti : resolve_metrics(name))
      EXPECT_NE(std::find(collected.begin(), collected.end(), cupti), collected.end()) << name;
  }
}

TEST(transpose_lab, grids_cover_the_matrix_in_32_x_32_tiles) {
  const lab l = make_lab_06_bank_conflicts();
  const auto collected = resolve_metric_names(l.default_metrics);
  for (const char* name :
       {"copy", "copy_restrict", "padded", "tile_rows", "shared_stride", "exercise"}) {
    const grid_size g = l.find(name)->grid(launch_config{1001, 256, 1});
    EXPECT_EQ(g.x, 32u) << name;  // ceil(1001 / 32)
    EXPECT_EQ(g.y, 32u) << name;
  }
  EXPECT_EQ(tr::tile_dims(77, 1003, 8).grid.x, 32u);  // columns
  EXPECT_EQ(tr::tile_dims(77, 1003, 8).grid.y, 3u);   // rows
  EXPECT_EQ(tr::tile_dims(77, 1003, 8).block.y, 8u);
}

TEST(transpose_lab, bad_sides_and_strides_are_usage_errors) {
  EXPECT_THROW(tr::check_sides(0, 5), usage_error);
  EXPECT_THROW(tr::check_sides(5, tr::max_side + 1), usage_error);
  EXPECT_NO_THROW(tr::check_sides(tr::max_side, tr::max_side));
  EXPECT_THROW(tr::check_stride(0), usage_error);
  EXPECT_THROW(tr::check_stride(33), usage_error);
  EXPECT_THROW(tr::tile_dims(100, 100, 16), usage_error);
  // prepare() refuses before it allocates anything.
  const lab l = make_lab_06_bank_conflicts();
  EXPECT_THROW(l.find("padded")->prepare(launch_config{0, 256, 0}, nullptr), usage_error);
  EXPECT_THROW(l.find("shared_stride")->prepare(launch_config{64, 256, 40}, nullptr), usage_error);
}

TEST(transpose_lab, the_grader_grades_the_float_transposes_at_the_default_side) {
  const lab l = make_lab_06_bank_conflicts();
  ASSERT_TRUE(l.exercise);
  EXPECT_EQ(l.exercise->size, transpose_default_side);
  EXPECT_EQ(testing::graded_variant_names(l),
            (std::vector<std::string>{"naive_row_read", "naive_col_read", "shared_tile", "padded",
                                      "swizzled", "tile_rows", "tile64_rows", "tile64_vec4",
                                      "tile64_vec4_row_order"}));
}

TEST(transpose_data, inputs_are_never_zero_exact_and_the_band_holds_nan) {
  const std::size_t rows = 37, cols = 45;
  const std::vector<float> f = data::make_input<float>(rows, cols);
  const std::vector<double> d = data::make_input<double>(rows, cols);
  ASSERT_EQ(f.size(), tr::padded_elements(rows, cols));
  for (std::size_t i = 0; i < rows * cols; ++i) {
    EXPECT_NE(f[i], 0.0f);
    EXPECT_LT(std::fabs(f[i]), 1.0f);
    EXPECT_EQ(f[i], data::input_value<float>(i));
    // A double input is not a float: a kernel moving it through a float would change it.
    EXPECT_NE(static_cast<double>(static_cast<float>(d[i])), d[i]) << i;
  }
  for (std::size_t i = rows * cols; i < f.size(); ++i) EXPECT_TRUE(std::isnan(f[i])) << i;
}

// The band reaches everything a tile touches: rows and columns rounded up to 32, either way.
TEST(transpose_data, the_band_covers_every_tile) {
  for (std::size_t rows : {1u, 31u, 33u, 1001u})
    for (std::size_t cols : {1u, 45u, 1003u}) {
      const std::size_t r32 = (rows + 31) / 32 * 32, c32 = (cols + 31) / 32 * 32;
      EXPECT_LT((r32 - 1) * cols + (c32 - 1), tr::padded_elements(rows, cols));
      EXPECT_LT((c32 - 1) * rows + (r32 - 1), tr::padded_elements(rows, cols));
    }
}

template <class T>
std::vector<T> poisoned_transpose(std::size_t rows, std::size_t cols) {
  std::vector<T> out(tr::padded_elements(rows, cols));
  std::memset(out.data(), 0xFF, out.size() * sizeof(T));
  data::cpu_transpose(data::make_input<T>(rows, cols), out, rows, cols);
  return out;
}

TEST(transpose_data, the_cpu_transpose_verifies_and_a_copy_does_not) {
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{1, 1}, {17, 64}, {77, 45}}) {
    const verify_result f = data::verify(data::result_shape::transpose, rows, cols,
                                         poisoned_transpose<float>(rows, cols));
    EXPECT_TRUE(f.ok) << rows << "x" << cols << ": " << f.detail;
    const verify_result d = data::verify(data::result_shape::transpose, rows, cols,
                                         poisoned_transpose<double>(rows, cols));
    EXPECT_TRUE(d.ok) << rows << "x" << cols << ": " << d.detail;
  }
  // The input itself is the right copy, and the wrong transpose of a non-square matrix.
  std::vector<float> in = data::make_input<float>(17, 64);
  std::memset(in.data() + 17 * 64, 0xFF, (in.size() - 17 * 64) * sizeof(float));
  EXPECT_TRUE(data::verify(data::result_shape::copy, 17, 64, in).ok);
  EXPECT_FALSE(data::verify(data::result_shape::transpose, 17, 64, in).ok);
}

TEST(transpose_data, a_wrong_element_and_a_write_past_the_result_both_fail) {
  const std::size_t rows = 17, cols = 45;
  std::vector<float> out = poisoned_transpose<float>(rows, cols);
  out[5 * rows + 3] = 0.5f;  // output (5, 3)
  verify_result r = data::verify(data::result_shape::transpose, rows, cols, out);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("out[5][3]"), std::string::npos) << r.detail;

  out = poisoned_transpose<float>(rows, cols);
  out[rows * cols + 4] = 1.0f;  // one element in the band
  r = data::verify(data::result_shape::transpose, rows, cols, out);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("1 elements written past"), std::string::npos) << r.detail;

  out = poisoned_transpose<float>(rows, cols);
  std::memset(out.data() + 3, 0xFF, sizeof(float));  // one element never written
  EXPECT_FALSE(data::verify(data::result_shape::transpose, rows, cols, out).ok);
}

}  // namespace
}  // namespace cudalab::labs
