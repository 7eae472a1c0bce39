// Lab 03's access model on the CPU: the closed forms of the naive and tiled products at sides
// that are multiples of every tile, exact counts at odd sides derived independently of the
// model, and the block-and-step-class shortcut against walking every block and every step.
#include "matmul_model.hpp"

#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/model/access_model.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

namespace mm = cudalab::labs::matmul_model;
using mm::kernel;
using std::uint64_t;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Sectors touched by `count` consecutive floats from float index `first` of a 256-byte
// aligned buffer.
uint64_t sectors_of_run(uint64_t first, uint64_t count) {
  return (first + count - 1) * 4 / 32 - first * 4 / 32 + 1;
}

// n = 1024: a multiple of 32 and of every block height, rows 4096 bytes apart.
TEST(matmul_model, naive_closed_form_two_requests_and_five_sectors_a_step) {
  const uint64_t n = 1024;
  const auto c = mm::predict(kernel::naive, n, 256);
  // A warp is 32 columns of one row: A's address is shared (1 sector), B's 32 floats 4.
  EXPECT_EQ(c.global_ld_requests, n * n * n / 16);
  EXPECT_EQ(c.global_ld_sectors, 5 * n * n * n / 32);
  EXPECT_EQ(c.global_st_requests, n * n / 32);
  EXPECT_EQ(c.global_st_sectors, n * n / 8);
  EXPECT_EQ(c.shared_ld_wavefronts + c.shared_st_wavefronts, 0u);
}

TEST(matmul_model, tiled_closed_form_requests_fall_by_the_tile) {
  const uint64_t n = 1024;
  const auto naive = mm::predict(kernel::naive, n, 256);
  for (uint64_t t : {8u, 16u, 32u}) {
    SCOPED_TRACE(testing::Message() << "T=" << t);
    const auto c = mm::predict(kernel::tiled, n, static_cast<unsigned>(t));
    // n^3 / (32 T) warp steps, each one A and one B request of 8 sectors in all (a warp covers
    // 32/T rows of T floats: whole sectors when T >= 8).
    EXPECT_EQ(c.global_ld_requests, n * n * n / (16 * t));
    EXPECT_EQ(c.global_ld_sectors, n * n * n / (4 * t));
    EXPECT_EQ(naive.global_ld_requests, t * c.global_ld_requests);
    EXPECT_EQ(8 * naive.global_ld_sectors, 5 * t * c.global_ld_sectors);  // 5T/8 fewer sectors
    EXPECT_EQ(c.global_st_requests, n * n / 32);
    EXPECT_EQ(c.global_st_sectors, n * n / 8);
    // Two conflict-free tile stores a warp step, and 2T conflict-free reads: the reads do not
    // depend on T (n^3 / 16), the stores fall with it.
    EXPECT_EQ(c.shared_st_wavefronts, n * n * n / (16 * t));
    EXPECT_EQ(c.shared_ld_wavefronts, n * n * n / 16);
    EXPECT_EQ(c.shared_ld_conflicts, 0u);
    EXPECT_EQ(c.shared_st_conflicts, 0u);
    // With T dividing n the guards never fire: the unguarded kernel counts the same.
    EXPECT_EQ(mm::predict(kernel::tiled_unguarded, n, static_cast<unsigned>(t)), c);
  }
}

TEST(matmul_model, store_in_loop_writes_every_output_once_a_tile_step) {
  for (uint64_t n : {1024u, 1001u, 77u}) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    const auto tiled = mm::predict(kernel::tiled, n, 16);
    const auto in_loop = mm::predict(kernel::tiled_store_in_loop, n, 16);
    const uint64_t steps = ceil_div(n, 16);
    EXPECT_EQ(in_loop.global_st_requests, steps * tiled.global_st_requests);
    EXPECT_EQ(in_loop.global_st_sectors, steps * tiled.global_st_sectors);
    EXPECT_EQ(in_loop.global_ld_sectors, tiled.global_ld_sectors);
    EXPECT_EQ(in_loop.shared_ld_wavefronts, tiled.shared_ld_wavefronts);
  }
}

// Odd sides: counted here from the kernels' guards, independently of the model's walk.
TEST(matmul_model, naive_at_odd_sides_equals_the_count_of_its_guards) {
  for (uint64_t n : {1001u, 999u, 77u}) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    const uint64_t col_blocks = ceil_div(n, 32);
    // Warps with a row inside the matrix: n rows of col_blocks warps; 2n loads and a store.
    uint64_t b_sectors = 0, c_sectors = 0;
    for (uint64_t bx = 0; bx < col_blocks; ++bx) {
      const uint64_t cols = std::min<uint64_t>(32, n - 32 * bx);
      for (uint64_t k = 0; k < n; ++k) b_sectors += sectors_of_run(k * n + 32 * bx, cols);
      for (uint64_t r = 0; r < n; ++r) c_sectors += sectors_of_run(r * n + 32 * bx, cols);
    }
    const auto c = mm::predict(kernel::naive, n, 256);
    EXPECT_EQ(c.global_ld_requests, 2 * n * n * col_blocks);
    EXPECT_EQ(c.global_ld_sectors, n * n * col_blocks + n * b_sectors);  // A broadcast: 1 each
    EXPECT_EQ(c.global_st_requests, n * col_blocks);
    EXPECT_EQ(c.global_st_sectors, c_sectors);
  }
}

TEST(matmul_model, tiled_32_at_odd_sides_equals_the_count_of_its_guards) {
  for (uint64_t n : {1001u, 999u, 77u}) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    const uint64_t blocks = ceil_div(n, 32);
    // A warp is one tile row. Its A load runs when its output row is inside (every step); its
    // B load when its tile row t T + ty is inside, whatever the output row: n of each a block
    // column (A) or a block (B).
    const auto c = mm::predict(kernel::tiled, n, 32);
    EXPECT_EQ(c.global_ld_requests, n * blocks * blocks + n * blocks * blocks);
    uint64_t a_sectors = 0, b_sectors = 0;
    for (uint64_t t = 0; t < blocks; ++t) {
      const uint64_t cols = std::min<uint64_t>(32, n - 32 * t);
      for (uint64_t r = 0; r < n; ++r) a_sectors += sectors_of_run(r * n + 32 * t, cols);
    }
    for (uint64_t bx = 0; bx < blocks; ++bx) {
      const uint64_t cols = std::min<uint64_t>(32, n - 32 * bx);
      for (uint64_t r = 0; r < n; ++r) b_sectors += sectors_of_run(r * n + 32 * bx, cols);
    }
    EXPECT_EQ(c.global_ld_sectors, blocks * a_sectors + blocks * b_sectors);
    EXPECT_EQ(c.global_st_requests, n * blocks);
    // Every warp of every block stores its tiles and reads them, inside the matrix or not.
    const uint64_t warp_steps = blocks * blocks * 32 * blocks;
    EXPECT_EQ(c.shared_st_wavefronts, 2 * warp_steps);
    EXPECT_EQ(c.shared_ld_wavefronts, 2 * 32 * warp_steps);
  }
}

TEST(matmul_model, unguarded_issues_every_lane_of_every_block) {
  const uint64_t n = 1001;
  for (uint64_t t : {8u, 16u, 32u}) {
    SCOPED_TRACE(testing::Message() << "T=" << t);
    const uint64_t blocks = ceil_div(n, t), warps = t * t / 32;
    const auto c = mm::predict(kernel::tiled_unguarded, n, static_cast<unsigned>(t));
    EXPECT_EQ(c.global_ld_requests, 2 * blocks * blocks * warps * blocks);
    EXPECT_EQ(c.global_st_requests, blocks * blocks * warps);
    EXPECT_GT(c.global_st_requests,
              mm::predict(kernel::tiled, n, static_cast<unsigned>(t)).global_st_requests);
  }
}

// The shortcut against walking every block and every loop step, at odd sides whose edges
// cut warps (n mod 8 != 0) and at every shape.
TEST(matmul_model, block_and_step_classes_equal_walking_every_block) {
  for (uint64_t n : {1u, 37u, 70u, 101u}) {
    for (unsigned threads : {32u, 256u, 1024u}) {
      SCOPED_TRACE(testing::Message() << "naive n=" << n << " threads=" << threads);
      EXPECT_EQ(mm::predict(kernel::naive, n, threads),
                mm::predict(kernel::naive, n, threads, mm::walk::every_block));
    }
    for (kernel k : {kernel::tiled, kernel::tiled_unguarded, kernel::tiled_store_in_loop})
      for (unsigned t : {2u, 4u, 8u, 16u, 32u}) {
        SCOPED_TRACE(testing::Message()
                     << "tiled kind " << static_cast<int>(k) << " n=" << n << " T=" << t);
        EXPECT_EQ(mm::predict(k, n, t), mm::predict(k, n, t, mm::walk::every_block));
      }
  }
}

TEST(matmul_model, prediction_cost_bounds_the_warps_walked_at_every_side) {
  for (uint64_t n : {1u, 1001u, 2048u, 2047u}) {
    for (unsigned threads : {32u, 256u, 1024u}) {
      const uint64_t before = cudalab::model::warp_accesses_built_on_this_thread();
      mm::predict(kernel::naive, n, threads);
      const double built =
          static_cast<double>(cudalab::model::warp_accesses_built_on_this_thread() - before);
      EXPECT_LE(built, mm::prediction_cost(kernel::naive, n, threads)) << n << " " << threads;
    }
    for (kernel k : {kernel::tiled, kernel::tiled_unguarded, kernel::tiled_store_in_loop})
      for (unsigned t : {2u, 4u, 8u, 16u, 32u}) {
        const uint64_t before = cudalab::model::warp_accesses_built_on_this_thread();
        mm::predict(k, n, t);
        const double built =
            static_cast<double>(cudalab::model::warp_accesses_built_on_this_thread() - before);
        EXPECT_LE(built, mm::prediction_cost(k, n, t)) << n << " T=" << t;
        // A few thousand warps at most at any side: well under the model budget.
        EXPECT_LT(mm::prediction_cost(k, n, t), 2e5);
      }
  }
}

TEST(matmul_model, shapes_the_kernels_reject_are_refused) {
  EXPECT_THROW(mm::predict(kernel::naive, 100, 48), cudalab::usage_error);
  EXPECT_THROW(mm::predict(kernel::tiled, 100, 12), cudalab::usage_error);
  EXPECT_THROW(mm::predict(kernel::tiled, 0, 16), cudalab::usage_error);
  EXPECT_THROW(mm::predict(kernel::tiled, cudalab::matmul::max_side + 1, 16), cudalab::usage_error);
}

}  // namespace
