// Lab 01 on the CPU: the access model's predictions against closed forms.
#include "indexing_lab.hpp"

#include "indexing/indexing_index.cuh"

#include <gtest/gtest.h>

namespace cudalab::labs {
namespace {

launch_config config(std::size_t n, int block) { return launch_config{n, block, 0}; }

TEST(indexing_grid, overlaunch_formula_launches_n_mod_t_extra_blocks) {
  EXPECT_EQ(indexing::grid_overlaunch(1000, 256), 3u + 232u);
  EXPECT_EQ(indexing::grid_ceil_div(1000, 256), 4u);
  EXPECT_EQ(indexing::grid_overlaunch(1024, 256), indexing::grid_ceil_div(1024, 256));
  EXPECT_EQ(indexing::grid_ceil_div(1, 1024), 1u);
}

TEST(indexing_model, guarded_copy_is_coalesced_4_sectors_per_request) {
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1000}, std::size_t{10'000'000}}) {
    const auto c = predict_indexing(indexing_kind::ceil_div, config(n, 256));
    EXPECT_EQ(c.global_ld_requests, (n + 31) / 32) << n;
    EXPECT_EQ(c.global_ld_sectors, (n * 4 + 31) / 32) << n;
    EXPECT_EQ(c.global_st_requests, c.global_ld_requests);
    EXPECT_EQ(c.global_st_sectors, c.global_ld_sectors);
  }
}

TEST(indexing_model, overlaunch_costs_no_memory_traffic_only_idle_threads) {
  // The extra blocks fail the guard before any load: same counts as the ceil-div grid.
  const auto over = predict_indexing(indexing_kind::overlaunch, config(1000, 256));
  const auto exact = predict_indexing(indexing_kind::ceil_div, config(1000, 256));
  EXPECT_EQ(over, exact);
}

TEST(indexing_model, unguarded_kernel_touches_the_whole_last_block) {
  const std::size_t n = 1000, t = 256;
  const auto c = predict_indexing(indexing_kind::unguarded, config(n, t));
  const std::size_t launched = indexing::grid_ceil_div(n, t) * t;  // 1024 threads
  EXPECT_EQ(c.global_st_requests, launched / 32);
  EXPECT_EQ(c.global_st_sectors, launched * 4 / 32);
  EXPECT_GT(c.global_st_bytes, n * 4);
}

TEST(indexing_model, grid_stride_matches_one_pass_counts) {
  for (std::size_t n : {std::size_t{1} << 22, std::size_t{3'000'001}}) {
    const auto stride = predict_indexing(indexing_kind::grid_stride, config(n, 256));
    const auto exact = predict_indexing(indexing_kind::ceil_div, config(n, 256));
    EXPECT_EQ(stride.global_ld_sectors, exact.global_ld_sectors) << n;
    EXPECT_EQ(stride.global_st_sectors, exact.global_st_sectors) << n;
  }
}

TEST(indexing_model, matrix_x_rows_needs_32_sectors_per_request_x_cols_4) {
  const std::size_t side = 1024;
  const auto rows = predict_indexing(indexing_kind::x_rows, config(side * side, 256));
  const auto cols = predict_indexing(indexing_kind::x_cols, config(side * side, 256));
  EXPECT_EQ(rows.global_ld_requests, side * side / 32);
  EXPECT_EQ(rows.global_ld_sectors, side * side);        // 32 per request
  EXPECT_EQ(cols.global_ld_requests, side * side / 32);
  EXPECT_EQ(cols.global_ld_sectors, side * side / 8);    // 4 per request
}

TEST(indexing_lab, registers_every_variant_with_a_model) {
  const lab l = make_lab_01_thread_indexing();
  EXPECT_EQ(l.id, "01-thread-indexing");
  ASSERT_EQ(l.variants.size(), 6u);
  for (const auto& v : l.variants) {
    EXPECT_TRUE(v.predict) << v.name;
    EXPECT_TRUE(v.prepare) << v.name;
    EXPECT_GT(v.ideal(config(1000, 256)).bytes, 0) << v.name;
  }
  EXPECT_EQ(l.default_size % 1024, 10'000'000 % 1024);
  EXPECT_NE(l.default_size % 256, 0u) << "the default size must leave a partial tail block";
}

}  // namespace
}  // namespace cudalab::labs
