// Lab 03's registration and host data on the CPU: the variants and their roles, the shapes the
// launchers accept and refuse, the exercise's grading setup, and the inputs and the check.
#include "matmul_data.hpp"
#include "matmul_lab.hpp"
#include "matmul_variants.hpp"

#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/registration_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

// This test binary registers lab 03 alone (lab::find and the grader's helpers live beside
// find_lab, which asks for the registry).
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_03_shared_memory_tiling)

namespace cudalab::labs {
namespace {

namespace data = matmul_data;

TEST(matmul_lab, registers_each_variant_with_its_role) {
  const lab l = make_lab_03_shared_memory_tiling();
  testing::expect_variant_roles(l,
                                {{variant_role::naive, {"naive"}},
                                 {variant_role::fixed, {"tiled"}},
                                 {variant_role::buggy, {"tiled_unguarded", "tiled_store_in_loop"}},
                                 {variant_role::baseline, {"cublas", "cpu_naive"}},
                                 {variant_role::exercise, {"exercise"}}});
  EXPECT_TRUE(l.flop_bound);
  EXPECT_TRUE(l.find("cpu_naive")->timed_on_host);
  EXPECT_FALSE(l.find("cpu_naive")->has_kernels);
  ASSERT_TRUE(l.find("tiled")->sweep);
  EXPECT_EQ(l.find("tiled")->sweep->default_values, (std::vector<long>{8, 16, 32}));
  // The default side is a multiple of no tile, so every guard is exercised.
  for (unsigned t : {2u, 4u, 8u, 16u, 32u}) {
    EXPECT_NE(l.default_size % t, 0u);
    EXPECT_NE(l.sanitize_size % t, 0u);
  }
}

TEST(matmul_lab, every_modelled_variant_predicts_the_default_run) {
  const lab l = make_lab_03_shared_memory_tiling();
  for (const char* name : {"naive", "tiled", "tiled_unguarded", "tiled_store_in_loop"}) {
    const variant* v = l.find(name);
    ASSERT_TRUE(v->predict) << name;
    const launch_config c{l.default_size, v->default_block, v->sweep ? 16 : 0};
    EXPECT_GT(v->predict(c).global_ld_requests, 0u) << name;
    EXPECT_LT(v->model_cost(c), 2e5) << name;
  }
  EXPECT_FALSE(l.find("exercise")->predict);  // the learner's kernel has no model
}

TEST(matmul_lab, grids_follow_the_launch_shapes) {
  const lab l = make_lab_03_shared_memory_tiling();
  const grid_size naive = l.find("naive")->grid(launch_config{1001, 256, 0});
  EXPECT_EQ(naive.x, 32u);   // ceil(1001 / 32) columns of 32
  EXPECT_EQ(naive.y, 126u);  // ceil(1001 / 8) rows of 8
  const grid_size tiled = l.find("tiled")->grid(launch_config{1001, 256, 32});
  EXPECT_EQ(tiled.x, 32u);
  EXPECT_EQ(tiled.y, 32u);
  const grid_size fixed = l.find("tiled_unguarded")->grid(launch_config{1001, 256, 0});
  EXPECT_EQ(fixed.x, 63u);  // T = 16
}

TEST(matmul_lab, bad_shapes_and_sides_are_usage_errors) {
  EXPECT_THROW(matmul::naive_dims(100, 48), usage_error);
  EXPECT_THROW(matmul::naive_dims(100, 2048), usage_error);
  EXPECT_THROW(matmul::tiled_dims(100, 12), usage_error);
  EXPECT_THROW(matmul::tiled_dims(100, 1), usage_error);
  EXPECT_THROW(matmul::tiled_dims(100, 64), usage_error);
  EXPECT_THROW(matmul::check_side(0), usage_error);
  EXPECT_THROW(matmul::check_side(matmul::max_side + 1), usage_error);
  EXPECT_NO_THROW(matmul::check_side(matmul::max_side));
  const lab l = make_lab_03_shared_memory_tiling();
  EXPECT_FALSE(l.find("naive")->blocks.violation(48).empty());
  EXPECT_TRUE(l.find("naive")->blocks.violation(256).empty());
}

TEST(matmul_lab, the_grader_grades_the_fixed_and_buggy_kernels_at_the_exercise_tile) {
  const lab l = make_lab_03_shared_memory_tiling();
  ASSERT_TRUE(l.exercise);
  EXPECT_EQ(l.exercise->size, matmul_default_side);
  EXPECT_EQ(l.exercise->graded_sweep_values, (std::vector<long>{fixed_tile}));
  EXPECT_EQ(testing::graded_variant_names(l),
            (std::vector<std::string>{"naive", "tiled", "tiled_unguarded", "tiled_store_in_loop"}));
}

TEST(matmul_data, inputs_are_never_zero_and_the_band_holds_nan) {
  const std::size_t n = 37;
  const std::vector<float> a = data::make_input(0, n), b = data::make_input(1, n);
  ASSERT_EQ(a.size(), matmul::padded_elements(n));
  for (std::size_t i = 0; i < n * n; ++i) {
    EXPECT_NE(a[i], 0.0f);
    EXPECT_LT(std::fabs(a[i]), 1.0f);
    EXPECT_EQ(a[i], data::input_value(0, i));
  }
  for (std::size_t i = n * n; i < a.size(); ++i) EXPECT_TRUE(std::isnan(b[i])) << i;
  EXPECT_NE(a, b);
}

// The padding reaches what the unguarded kernel touches: rows and columns up to
// ceil(n/T) T - 1 for the largest tile.
TEST(matmul_data, the_band_covers_the_unguarded_reach) {
  for (std::size_t n : {1u, 31u, 33u, 1001u, 2047u}) {
    const std::size_t reach = (n + 31) / 32 * 32;  // rows and columns 0 .. reach - 1
    EXPECT_LT((reach - 1) * n + (reach - 1), matmul::padded_elements(n)) << n;
  }
}

std::vector<float> poisoned_product(std::size_t n) {
  std::vector<float> c(matmul::padded_elements(n));
  std::memset(c.data(), 0xFF, c.size() * sizeof(float));
  data::cpu_product(data::make_input(0, n), data::make_input(1, n), c, n);
  return c;
}

TEST(matmul_data, the_cpu_product_verifies) {
  for (std::size_t n : {1u, 17u, 64u}) {
    const verify_result r = data::verify_product(n, poisoned_product(n));
    EXPECT_TRUE(r.ok) << n << ": " << r.detail;
  }
}

TEST(matmul_data, a_wrong_output_and_a_write_past_c_both_fail) {
  const std::size_t n = 17;
  std::vector<float> c = poisoned_product(n);
  c[5 * n + 3] += 0.01f;
  verify_result r = data::verify_product(n, c);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("C[5][3]"), std::string::npos) << r.detail;

  c = poisoned_product(n);
  c[n * n + 4] = 1.0f;  // one float in the band
  r = data::verify_product(n, c);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("1 floats written past"), std::string::npos) << r.detail;
}

}  // namespace
}  // namespace cudalab::labs
