// The warp walkers and builders that labs use to describe their kernels: warps are cut from
// blocks the way the hardware cuts them, partial warps have inactive lanes, and a lane for which
// the address function says nothing stays inactive.
#include "cudalab/model/warp_patterns.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace model = cudalab::model;

TEST(warp_patterns, block_of_48_threads_has_a_full_warp_and_one_of_16_lanes) {
  std::vector<model::warp_threads> warps;
  model::for_each_warp(96, 48, [&](const model::warp_threads& w) { warps.push_back(w); });
  ASSERT_EQ(warps.size(), 4u);
  EXPECT_EQ(warps[0].lanes, 32u);
  EXPECT_EQ(warps[1].lanes, 16u);
  EXPECT_EQ(warps[2].block, 1u);
  EXPECT_EQ(warps[2].lanes, 32u);
  EXPECT_EQ(warps[3].lanes, 16u);
  EXPECT_EQ(warps[1].global_id(0), 32u);
  EXPECT_EQ(warps[3].global_id(15), 95u);
  EXPECT_TRUE(warps[1].active(15));
  EXPECT_FALSE(warps[1].active(16));
  EXPECT_EQ(warps[3].thread_in_block(15), 47u);
  EXPECT_EQ(warps[3].warp_in_block(), 1u);
}

TEST(warp_patterns, every_global_id_appears_once_in_order) {
  std::uint64_t next = 0;
  bool in_order = true;
  model::for_each_warp(model::launch_threads(1000, 96), 96, [&](const model::warp_threads& w) {
    for (unsigned lane = 0; lane < w.lanes; ++lane) {
      in_order = in_order && w.global_id(lane) == next++;
    }
  });
  EXPECT_TRUE(in_order);
  EXPECT_EQ(next, 1056u);  // 11 blocks of 96
}

TEST(warp_patterns, partial_warp_lanes_are_inactive_in_the_access) {
  model::access_counts c;
  model::for_each_warp(48, 48, [&](const model::warp_threads& w) {
    c += model::count_warp_access(
        model::global_load(w, 4, [](std::uint64_t i) { return std::uint64_t{4} * i; }));
  });
  EXPECT_EQ(c.global_ld_requests, 2u);
  EXPECT_EQ(c.global_ld_bytes, 48u * 4);
  EXPECT_EQ(c.global_ld_sectors, 6u);
}

TEST(warp_patterns, bounds_guard_leaves_lanes_past_n_inactive) {
  const auto a = model::make_warp_access(
      model::memory_space::global, model::access_kind::store, 4,
      [](unsigned lane) { return model::element_address(1024, lane, 4, 5); });
  EXPECT_EQ(a.address[4], 1024u + 16);
  EXPECT_EQ(a.address[5], model::inactive_lane);
  EXPECT_EQ(a.address[31], model::inactive_lane);
}

TEST(warp_patterns, shared_helpers_use_the_thread_in_block) {
  std::vector<std::uint64_t> first_lane;
  model::for_each_warp(128, 64, [&](const model::warp_threads& w) {
    first_lane.push_back(model::shared_store(w, 4, [](unsigned t) { return 4 * t; }).address[0]);
  });
  EXPECT_EQ(first_lane, (std::vector<std::uint64_t>{0, 128, 0, 128}));
}

TEST(warp_patterns, two_d_warps_walk_threadidx_x_fastest) {
  std::vector<model::warp_threads_2d> warps;
  model::for_each_warp_2d(2, 1, 16, 4,
                          [&](const model::warp_threads_2d& w) { warps.push_back(w); });
  ASSERT_EQ(warps.size(), 4u);  // 2 blocks of 64 threads
  EXPECT_EQ(warps[0].thread_x(17), 1u);
  EXPECT_EQ(warps[0].thread_y(17), 1u);
  EXPECT_EQ(warps[1].thread_y(0), 2u);
  EXPECT_EQ(warps[2].block_x, 1u);
  EXPECT_EQ(warps[2].global_x(3), 19u);
  EXPECT_EQ(warps[3].global_y(31), 3u);
}

TEST(warp_patterns, grid_that_is_not_whole_blocks_is_rejected) {
  EXPECT_THROW(model::for_each_warp(100, 64, [](const model::warp_threads&) {}),
               std::invalid_argument);
  EXPECT_THROW(model::for_each_warp(64, 0, [](const model::warp_threads&) {}),
               std::invalid_argument);
  EXPECT_EQ(model::launch_threads(100, 64), 128u);
  EXPECT_EQ(model::launch_threads(128, 64), 128u);
}
