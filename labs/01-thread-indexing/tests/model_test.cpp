// Lab 01 on the CPU: the access model's predictions against closed forms.
#include "indexing_lab.hpp"

#include "indexing/indexing_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/model/access_model.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <vector>

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
  EXPECT_EQ(rows.global_ld_sectors, side * side);  // 32 per request
  EXPECT_EQ(cols.global_ld_requests, side * side / 32);
  EXPECT_EQ(cols.global_ld_sectors, side * side / 8);  // 4 per request
}

TEST(indexing_grid, underlaunch_formula_covers_only_whole_blocks) {
  EXPECT_EQ(indexing::grid_underlaunch(1000, 256), 3u);  // 768 of 1000 elements
  EXPECT_EQ(indexing::grid_underlaunch(1024, 256), indexing::grid_ceil_div(1024, 256));
  EXPECT_EQ(indexing::grid_underlaunch(100, 256), 0u);  // nothing launched at all
}

TEST(indexing_model, underlaunch_moves_only_the_elements_of_whole_blocks) {
  const std::size_t n = 10'000'000, t = 256;
  const std::size_t covered = n / t * t;  // 9,999,872
  const auto under = predict_indexing(indexing_kind::underlaunch, config(n, t));
  EXPECT_EQ(under.global_ld_requests, covered / 32);
  EXPECT_EQ(under.global_ld_sectors, covered * 4 / 32);
  EXPECT_EQ(under.global_st_sectors, covered * 4 / 32);
  EXPECT_EQ(predict_indexing(indexing_kind::underlaunch, config(100, 256)), model::access_counts{});
}

TEST(indexing_int_index, wraps_to_int_min_at_element_2_to_the_31) {
  // Block first_block plays block 2^31 / 256 of the full launch: its thread 0 is element 2^31.
  const unsigned first_block = (1u << 31) / 256;
  const indexing::thread_coord last_below{0, 0, 255, 0, 256, 1, 2};  // block first_block - 1
  const indexing::thread_coord first_above{0, 0, 0, 0, 256, 1, 2};
  EXPECT_EQ(indexing::global_index_int(last_below, first_block - 1), INT_MAX);
  EXPECT_EQ(indexing::global_index_int(first_above, first_block), INT_MIN);
  EXPECT_EQ(indexing::global_index_64(first_above, first_block), std::int64_t{1} << 31);
}

TEST(indexing_int_index, window_straddles_element_2_to_the_31_on_a_block_boundary) {
  for (unsigned block : {32u, 96u, 256u, 1000u, 1024u}) {
    for (std::size_t size : {std::size_t{2048}, std::size_t{1'000'003}, std::size_t{10'000'000}}) {
      const indexing::index_window w = indexing::overflow_window(size, block);
      EXPECT_EQ(w.first_element % block, 0) << block;
      EXPECT_EQ(w.first_element, std::int64_t{w.first_block} * block);
      EXPECT_EQ(w.n - w.first_element, static_cast<std::int64_t>(size));
      EXPECT_LT(w.first_element, indexing::int_index_limit) << size << " " << block;
      EXPECT_GT(w.n, indexing::int_index_limit) << size << " " << block;
    }
  }
}

TEST(indexing_int_index, every_launched_thread_past_2_to_the_31_wraps_and_touches_nothing) {
  for (const launch_config c :
       {config(10'000'000, 256), config(1'000'003, 96), config(1000, 256)}) {
    const indexing::index_window w =
        indexing::overflow_window(c.size, static_cast<unsigned>(c.block));
    const std::size_t below = static_cast<std::size_t>(indexing::int_index_limit - w.first_element);
    // Every launched thread from element 2^31 on wraps, the tail block's threads past the end
    // included: a negative index passes the bounds guard.
    const std::size_t launched = indexing::grid_ceil_div(c.size, static_cast<unsigned>(c.block)) *
                                 static_cast<std::size_t>(c.block);
    const index_wraps wraps = predict_index_wraps(c);
    EXPECT_EQ(wraps.threads, launched - below) << c.size;
    EXPECT_EQ(wraps.lowest_index, INT_MIN) << c.size;
    // Only the elements below 2^31 are read and written; 2^31 is a multiple of 32 elements, and
    // the window starts on a block boundary, so every request is a whole, aligned warp.
    const auto counts = predict_indexing(indexing_kind::int_index, c);
    const auto fixed = predict_indexing(indexing_kind::int64_index, c);
    if (c.block % 32 == 0) {
      EXPECT_EQ(counts.global_ld_requests, below / 32) << c.size;
      EXPECT_EQ(counts.global_st_sectors, below * 4 / 32) << c.size;
    }
    EXPECT_LT(counts.global_ld_sectors, fixed.global_ld_sectors) << c.size;
  }
}

TEST(indexing_int_index, the_64_bit_index_moves_the_whole_window_like_the_guarded_copy) {
  for (const launch_config c : {config(10'000'000, 256), config(1'000'003, 96)}) {
    EXPECT_EQ(predict_indexing(indexing_kind::int64_index, c),
              predict_indexing(indexing_kind::ceil_div, c))
        << c.size;
  }
}

TEST(indexing_int_index, window_sizes_beyond_2_to_the_30_are_refused_before_any_work) {
  const std::size_t too_big = indexing::index_window_max + 1;
  EXPECT_THROW(predict_indexing(indexing_kind::int_index, config(too_big, 256)), usage_error);
  EXPECT_THROW(predict_indexing(indexing_kind::int64_index, config(0, 256)), usage_error);
  EXPECT_THROW(predict_index_wraps(config(too_big, 256)), usage_error);
  const lab l = make_lab_01_thread_indexing();
  EXPECT_THROW(l.find("int64_index")->prepare(config(too_big, 256), nullptr), usage_error);
}

const indexing_kind every_kind[] = {
    indexing_kind::overlaunch,  indexing_kind::underlaunch, indexing_kind::ceil_div,
    indexing_kind::unguarded,   indexing_kind::int_index,   indexing_kind::int64_index,
    indexing_kind::grid_stride, indexing_kind::x_rows,      indexing_kind::x_cols};

bool is_matrix(indexing_kind k) { return k == indexing_kind::x_rows || k == indexing_kind::x_cols; }

TEST(indexing_model, repeating_blocks_count_the_same_as_walking_every_block) {
  // Sizes that leave partial blocks, grid-stride loops of one to many steps, matrices whose
  // side is not a multiple of 32 or of the block's height.
  const std::vector<std::size_t> sizes{1, 31, 1000, 4097, 65'537, 1'000'003, std::size_t{1} << 20};
  const std::vector<int> blocks{1, 3, 32, 33, 64, 96, 100, 256, 1000, 1024};
  for (indexing_kind k : every_kind)
    for (std::size_t n : sizes)
      for (int block : blocks) {
        if (is_matrix(k) && block % 32 != 0) continue;
        if (n > 100'000 && block < 32) continue;  // keep the reference walk quick
        const launch_config c = config(n, block);
        ASSERT_EQ(predict_indexing(k, c), predict_indexing_every_block(k, c))
            << "kind " << static_cast<int>(k) << " n " << n << " block " << block;
      }
}

TEST(indexing_model, cost_bounds_the_warp_instructions_the_prediction_builds) {
  // The estimate counts a load and a store for every warp of the blocks walked (and two steps
  // and a last probe for the grid-stride loop); every warp builds at least its first load.
  for (indexing_kind k : every_kind)
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{10'000'000},
                          std::size_t{1} << 30, std::size_t{1} << 36})
      for (int block : {32, 96, 256, 1024}) {
        const bool window = k == indexing_kind::int_index || k == indexing_kind::int64_index;
        if (window && n > indexing::index_window_max) continue;  // refused before any work
        const launch_config c = config(n, block);
        const std::uint64_t before = model::warp_accesses_built_on_this_thread();
        (void)predict_indexing(k, c);
        const auto built =
            static_cast<double>(model::warp_accesses_built_on_this_thread() - before);
        const double cost = indexing_model_cost(k, c);
        EXPECT_GE(cost, built) << "kind " << static_cast<int>(k) << " n " << n << " block "
                               << block;
        const double most_per_warp = k == indexing_kind::grid_stride ? 5 : 2;
        EXPECT_LE(cost, most_per_warp * built)
            << "kind " << static_cast<int>(k) << " n " << n << " block " << block;
      }
}

TEST(indexing_model, largest_sizes_still_match_the_closed_forms) {
  const std::size_t n = (std::size_t{1} << 36) + 3;
  for (indexing_kind k :
       {indexing_kind::ceil_div, indexing_kind::overlaunch, indexing_kind::grid_stride}) {
    const auto c = predict_indexing(k, config(n, 256));
    EXPECT_EQ(c.global_ld_requests, (n + 31) / 32) << static_cast<int>(k);
    EXPECT_EQ(c.global_ld_sectors, (n * 4 + 31) / 32) << static_cast<int>(k);
  }
  const std::size_t side = std::size_t{1} << 18;  // 2^36 elements
  const auto rows = predict_indexing(indexing_kind::x_rows, config(side * side, 256));
  EXPECT_EQ(rows.global_ld_sectors, side * side);
  const auto cols = predict_indexing(indexing_kind::x_cols, config(side * side, 256));
  EXPECT_EQ(cols.global_ld_sectors, side * side / 8);
}

TEST(indexing_model, matrix_variants_refuse_blocks_that_are_not_whole_warps_wide) {
  for (int block : {1, 16, 31, 33, 100})
    for (indexing_kind k : {indexing_kind::x_rows, indexing_kind::x_cols}) {
      EXPECT_THROW(predict_indexing(k, config(1000, block)), usage_error) << block;
      EXPECT_THROW(indexing_model_cost(k, config(1000, block)), usage_error) << block;
    }
}

TEST(indexing_lab, registers_every_variant_with_a_model) {
  const lab l = make_lab_01_thread_indexing();
  EXPECT_EQ(l.id, "01-thread-indexing");
  ASSERT_EQ(l.variants.size(), 9u);
  for (const auto& v : l.variants) {
    EXPECT_TRUE(v.predict) << v.name;
    EXPECT_TRUE(v.model_cost) << v.name;
    EXPECT_TRUE(v.prepare) << v.name;
    EXPECT_GT(v.ideal(config(1000, 256)).bytes, 0) << v.name;
  }
  EXPECT_EQ(l.default_size % 1024, 10'000'000 % 1024);
  EXPECT_NE(l.default_size % 256, 0u) << "the default size must leave a partial tail block";
}

}  // namespace
}  // namespace cudalab::labs
