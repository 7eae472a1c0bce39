// Lab 08's access model on the CPU: the block-class shortcut against a walk of every block and
// step, the shared loads against the counts derived from each tiling, and the load paths.
#include "regtile_lab.hpp"
#include "regtile_model.hpp"

#include "matmul/register_tiling_kernels.cuh"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

namespace rm = cudalab::labs::regtile_model;
namespace mm = cudalab::matmul;
using rm::kernel;

struct point {
  kernel k;
  unsigned config;
};
const point every_kernel[] = {{kernel::pad_product, 0}, {kernel::pad_with_copies, 0},
                              {kernel::coarse_1d, 0},   {kernel::register_2d, 0},
                              {kernel::vectorized, 0},  {kernel::warp_tiled, 0},
                              {kernel::warp_tiled, 1},  {kernel::warp_tiled, 2}};

TEST(regtile_model, block_classes_equal_walking_every_block_at_odd_and_aligned_sides) {
  for (const point& p : every_kernel)
    for (std::size_t n : {std::size_t{77}, std::size_t{132}, std::size_t{261}}) {
      const auto fast = rm::predict(p.k, n, p.config, rm::walk::block_classes);
      const auto slow = rm::predict(p.k, n, p.config, rm::walk::every_block);
      EXPECT_EQ(fast, slow) << static_cast<int>(p.k) << " config " << p.config << " n " << n;
    }
}

// The LDS a warp issues per step, from the tiling: 16-byte reads wherever a thread's words are
// consecutive and aligned (the SASS the README shows), 4-byte ones otherwise.
std::uint64_t derived_loads_per_step(kernel k, unsigned config) {
  const mm::block_tiling& t = rm::tiling_of(k, config);
  switch (k) {
    case kernel::coarse_1d:  // a row's BK words in BK/4 LDS.128, one B word a column
      return t.tm * t.bk / 4 + t.bk;
    case kernel::register_2d:  // the same for A, TN/4 LDS.128 of B a column
      return t.tm * t.bk / 4 + t.bk * t.tn / 4;
    case kernel::vectorized:  // both from 16-byte reads, every column
      return t.bk * (t.tm / 4 + t.tn / 4);
    default:
      return t.bk * (t.wm_iter() * t.tm / 4 + t.wn_iter * t.tn / 4);
  }
}

TEST(regtile_model, shared_load_instructions_follow_the_tiling_at_any_side) {
  for (const point& p : every_kernel) {
    if (p.k == kernel::pad_product || p.k == kernel::pad_with_copies) continue;
    const mm::block_tiling& t = rm::tiling_of(p.k, p.config);
    EXPECT_EQ(rm::shared_loads_per_warp_step(p.k, p.config), derived_loads_per_step(p.k, p.config));
    for (std::size_t n : {std::size_t{1001}, std::size_t{2048}, std::size_t{4096}}) {
      const auto c = rm::predict(p.k, n, p.config);
      const std::uint64_t blocks = ((n + t.bm - 1) / t.bm) * ((n + t.bn - 1) / t.bn);
      const std::uint64_t steps = (n + t.bk - 1) / t.bk;
      EXPECT_EQ(c.shared_ld_instructions,
                blocks * (t.threads / 32) * steps * derived_loads_per_step(p.k, p.config))
          << static_cast<int>(p.k) << " n " << n;
      EXPECT_TRUE(c.shared_ld_inst_exact);
    }
  }
}

TEST(regtile_model, loads_per_fma_fall_with_the_outputs_a_thread) {
  const auto per_fma = [](kernel k, unsigned config = 0) {
    const double n = 4096;
    return static_cast<double>(rm::predict(k, 4096, config).shared_ld_instructions) /
           (n * n * n / 32);
  };
  // pad_to_64: 4 outputs a thread; coarse_1d 8 of a column; register_2d 8 x 8.
  EXPECT_DOUBLE_EQ(per_fma(kernel::pad_product), (4.0 * 32 / 4 + 32) / (32 * 4));
  EXPECT_DOUBLE_EQ(per_fma(kernel::coarse_1d), (8.0 * 8 / 4 + 8) / (8 * 8));
  EXPECT_DOUBLE_EQ(per_fma(kernel::register_2d), (8.0 * 8 / 4 + 8 * 8 / 4) / (8 * 64));
  EXPECT_LT(per_fma(kernel::warp_tiled), per_fma(kernel::vectorized) + 1e-12);
}

TEST(regtile_model, aligned_rows_take_16_byte_loads_and_odd_rows_four_4_byte_loads) {
  // At n = 4096 each A or B slot of 4 floats is one request; at n = 4095 four.
  const auto aligned = rm::predict(kernel::vectorized, 4096);
  const mm::block_tiling& t = mm::vectorized_tiling;
  const std::uint64_t blocks = (4096 / t.bm) * (4096 / t.bn), steps = 4096 / t.bk;
  const std::uint64_t slots_a_warp = (t.bm * t.bk + t.bk * t.bn) / (4 * t.threads);
  EXPECT_EQ(aligned.global_ld_requests, blocks * (t.threads / 32) * steps * slots_a_warp);
  EXPECT_EQ(aligned.global_ld_sectors, 16 * aligned.global_ld_requests);
  // At 4095 four requests a slot, less those whose lanes are all past the last column.
  const auto odd = rm::predict(kernel::vectorized, 4095);
  EXPECT_LE(odd.global_ld_requests, 4 * aligned.global_ld_requests);
  EXPECT_GT(odd.global_ld_requests, 4 * aligned.global_ld_requests * 99 / 100);
}

TEST(regtile_model, every_output_is_stored_once) {
  for (const point& p : every_kernel)
    for (std::size_t n : {std::size_t{77}, std::size_t{2001}}) {
      const std::uint64_t side = mm::padded_side(n);
      std::uint64_t stored = n * n;                          // the kernels write C once
      if (p.k == kernel::pad_product) stored = side * side;  // the padded C
      if (p.k == kernel::pad_with_copies) stored = 3 * side * side + n * n;  // copies and C
      EXPECT_EQ(rm::predict(p.k, n, p.config).global_st_bytes, 4 * stored)
          << static_cast<int>(p.k) << " n " << n;
    }
}

TEST(regtile_model, predictions_stay_cheap_at_the_largest_side) {
  for (const point& p : every_kernel)
    EXPECT_LT(rm::prediction_cost(p.k, mm::max_side, p.config), 5e6);
}

}  // namespace
