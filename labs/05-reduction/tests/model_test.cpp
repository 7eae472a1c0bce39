// Lab 05 predictions against the closed forms of docs/access_model.md (Harris kernels 1-3,
// 256 threads a block) and of coalesced reads, at block multiples and odd sizes; and the
// scaled shortcut against a walk of every warp.
#include "reduction_model.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/model_budget.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using cudalab::labs::reduction_model::kernel;
using cudalab::labs::reduction_model::predict;
using cudalab::labs::reduction_model::predict_brute_force;
using cudalab::labs::reduction_model::predict_two_pass;
using cudalab::labs::reduction_model::prediction_cost;
namespace red = cudalab::reduction;

constexpr std::uint64_t blocks_4096 = 4096;
constexpr std::size_t n_4096_blocks = blocks_4096 * 256;  // 2^20 elements, 256 threads a block

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

TEST(reduction_model, interleaved_strided_256_stores_55_wavefronts_35_conflicts_a_block) {
  const auto c = predict(kernel::interleaved_strided, n_4096_blocks, 256);
  EXPECT_EQ(c.shared_st_wavefronts, 55 * blocks_4096);
  EXPECT_EQ(c.shared_st_conflicts, 35 * blocks_4096);
  EXPECT_EQ(c.shared_ld_wavefronts, 95 * blocks_4096);
  EXPECT_EQ(c.shared_ld_conflicts, 70 * blocks_4096);  // 286,720 at 2^20
}

TEST(reduction_model, sequential_256_needs_25_load_20_store_wavefronts_and_no_conflicts) {
  const auto c = predict(kernel::sequential, n_4096_blocks, 256);
  EXPECT_EQ(c.shared_ld_wavefronts, 25 * blocks_4096);  // 102,400
  EXPECT_EQ(c.shared_st_wavefronts, 20 * blocks_4096);  // 81,920
  EXPECT_EQ(c.shared_ld_conflicts, 0u);
  EXPECT_EQ(c.shared_st_conflicts, 0u);
}

TEST(reduction_model, interleaved_divergent_256_loads_95_wavefronts_without_conflicts) {
  const auto c = predict(kernel::interleaved_divergent, n_4096_blocks, 256);
  EXPECT_EQ(c.shared_ld_wavefronts, 95 * blocks_4096);  // 389,120
  EXPECT_EQ(c.shared_st_wavefronts, 55 * blocks_4096);
  EXPECT_EQ(c.shared_ld_conflicts, 0u);
  EXPECT_EQ(c.shared_st_conflicts, 0u);
}

// Predicated trees: every warp issues 2 LDS + 1 STS at each of the 8 steps, plus the initial
// STS and thread 0's final LDS: 129 LDS and 72 STS a block (as measured for Harris 1-3).
// The divergent kernel branches around its call, so idle warps issue nothing: 95 and 55.
TEST(reduction_model, predicated_trees_issue_129_lds_72_sts_a_256_thread_block) {
  for (kernel k : {kernel::interleaved_strided, kernel::sequential}) {
    const auto c = predict(k, n_4096_blocks, 256);
    EXPECT_EQ(c.shared_ld_instructions, 129 * blocks_4096);
    EXPECT_EQ(c.shared_st_instructions, 72 * blocks_4096);
  }
  const auto d = predict(kernel::interleaved_divergent, n_4096_blocks, 256);
  EXPECT_EQ(d.shared_ld_instructions, 95 * blocks_4096);
  EXPECT_EQ(d.shared_st_instructions, 55 * blocks_4096);
}

// Every element is read once by a coalesced 4-byte load: ceil(n/32) requests, ceil(n/8)
// sectors, whatever the block size, the size's remainder, or two loads a thread.
TEST(reduction_model, coalesced_float_read_is_n_over_32_requests_and_n_over_8_sectors) {
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1000003}, std::size_t{4097},
                        std::size_t{33}, std::size_t{1}})
    for (unsigned block : {32u, 256u, 1024u})
      for (kernel k : {kernel::interleaved_divergent, kernel::interleaved_strided,
                       kernel::sequential, kernel::first_add, kernel::warp_shuffle}) {
        SCOPED_TRACE(testing::Message()
                     << "n=" << n << " block=" << block << " kernel=" << static_cast<int>(k));
        const auto c = predict(k, n, block);
        EXPECT_EQ(c.global_ld_requests, ceil_div(n, 32));
        EXPECT_EQ(c.global_ld_sectors, ceil_div(n, 8));
        EXPECT_EQ(c.global_ld_bytes, 4 * n);
        const bool pairs = k == kernel::first_add || k == kernel::warp_shuffle;
        const std::uint64_t blocks = pairs ? ceil_div(n, 2 * block) : ceil_div(n, block);
        EXPECT_EQ(c.global_st_requests, blocks);  // thread 0 writes the block's partial sum
        EXPECT_EQ(c.global_st_sectors, blocks);
      }
}

// float4 loads: a warp moves 512 bytes = 16 sectors a request; the n % 4 tail costs one more
// request of one sector.
TEST(reduction_model, grid_stride_float4_reads_n_over_128_requests_of_16_sectors) {
  const auto c = predict(kernel::grid_stride, std::size_t{1} << 20, 256);
  EXPECT_EQ(c.global_ld_requests, (1u << 20) / 128);  // 8,192
  EXPECT_EQ(c.global_ld_sectors, (1u << 20) / 8);     // 131,072
  for (std::size_t n : {std::size_t{1000003}, std::size_t{4097}, std::size_t{7}, std::size_t{3}})
    for (unsigned block : {32u, 128u, 1024u}) {
      const auto g = predict(kernel::grid_stride, n, block);
      const std::uint64_t vectors = n / 4, tail = n % 4 ? 1 : 0;
      EXPECT_EQ(g.global_ld_requests, ceil_div(vectors, 32) + tail) << n << " " << block;
      EXPECT_EQ(g.global_ld_sectors, ceil_div(vectors, 2) + tail) << n << " " << block;
      EXPECT_EQ(g.global_st_requests, 0u);  // the result goes out by atomicAdd (RED), not a store
      const std::uint64_t blocks = red::grid_stride_blocks(n, block);
      EXPECT_EQ(g.shared_st_wavefronts, blocks * (block / 32));  // lane 0 of each warp
      EXPECT_EQ(g.shared_ld_wavefronts, blocks);                 // warp 0 reads the warp sums
      EXPECT_EQ(g.shared_ld_conflicts + g.shared_st_conflicts, 0u);
    }
}

TEST(reduction_model, grid_stride_grid_is_bounded_by_the_thread_budget) {
  EXPECT_EQ(red::grid_stride_blocks(std::size_t{1} << 28, 256),
            red::grid_stride_thread_budget / 256);
  EXPECT_EQ(red::grid_stride_blocks(4096, 256), 4u);  // 1024 vectors
  EXPECT_EQ(red::grid_stride_blocks(3, 256), 1u);
}

// Warp shuffle, block B: the shared tree stops at s = 64, then warp 0 reads sdata[tid] and
// sdata[tid + 32] (predicated off when B = 32) and shuffles.
TEST(reduction_model, warp_shuffle_leaves_the_last_32_values_to_registers) {
  for (unsigned block : {32u, 64u, 256u, 1024u}) {
    const std::size_t n = 2 * std::size_t{block} * 100;  // 100 whole blocks
    const auto c = predict(kernel::warp_shuffle, n, block);
    std::uint64_t active_warps = 0, steps = 0;
    for (unsigned s = block / 2; s > 32; s >>= 1, ++steps) active_warps += s / 32;
    const std::uint64_t warps = block / 32;
    EXPECT_EQ(c.shared_st_wavefronts, 100 * (warps + active_warps)) << block;
    EXPECT_EQ(c.shared_ld_wavefronts, 100 * (2 * active_warps + 1 + (block >= 64 ? 1 : 0)))
        << block;
    EXPECT_EQ(c.shared_ld_instructions, 100 * (2 * warps * steps + 2)) << block;
    EXPECT_EQ(c.shared_ld_conflicts + c.shared_st_conflicts, 0u);
  }
}

TEST(reduction_model, shortcut_equals_a_walk_of_every_warp) {
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{1000}, std::size_t{4097},
                        std::size_t{65536}, std::size_t{100003}})
    for (unsigned block : {32u, 64u, 128u, 256u, 512u, 1024u})
      for (kernel k :
           {kernel::interleaved_divergent, kernel::interleaved_strided, kernel::sequential,
            kernel::first_add, kernel::warp_shuffle, kernel::grid_stride}) {
        SCOPED_TRACE(testing::Message()
                     << "n=" << n << " block=" << block << " kernel=" << static_cast<int>(k));
        EXPECT_TRUE(predict(k, n, block) == predict_brute_force(k, n, block));
      }
}

TEST(reduction_model, two_pass_adds_one_1024_thread_block_over_the_partials) {
  const std::size_t n = 1000003;
  const auto first = predict(kernel::sequential, n, 256);
  const auto both = predict_two_pass(kernel::sequential, n, 256);
  const std::uint64_t partials = ceil_div(n, 256);
  EXPECT_EQ(both.global_ld_requests - first.global_ld_requests, ceil_div(partials, 32));
  EXPECT_EQ(both.global_ld_sectors - first.global_ld_sectors, ceil_div(partials, 8));
  EXPECT_EQ(both.global_st_requests - first.global_st_requests, 1u);
  // The finishing tree: 32 warps x 10 steps x 2 predicated LDS, plus thread 0 reading sdata[0].
  EXPECT_EQ(both.shared_ld_instructions - first.shared_ld_instructions, 32u * 2 * 10 + 1);
  EXPECT_EQ(both.shared_ld_conflicts, 0u);
}

TEST(reduction_model, cost_grows_with_the_size_and_bounds_the_accesses_built) {
  for (kernel k : {kernel::interleaved_divergent, kernel::sequential, kernel::first_add,
                   kernel::warp_shuffle, kernel::grid_stride})
    for (bool two_pass : {false, true}) {
      if (two_pass && k == kernel::grid_stride) continue;
      for (unsigned block : {32u, 256u, 1024u}) {
        double previous = 0;
        for (std::size_t n = 1; n <= red::max_elements; n = n * 4 + 3) {
          SCOPED_TRACE(testing::Message()
                       << "n=" << n << " block=" << block << " kernel=" << static_cast<int>(k));
          const double cost = prediction_cost(k, n, block, two_pass);
          EXPECT_GE(cost, previous);
          previous = cost;
          const std::uint64_t before = cudalab::model::warp_accesses_built_on_this_thread();
          (void)(two_pass ? predict_two_pass(k, n, block) : predict(k, n, block));
          EXPECT_LE(
              static_cast<double>(cudalab::model::warp_accesses_built_on_this_thread() - before),
              cost);
        }
        // The costliest point the lab accepts stays a small part of a run's budget.
        EXPECT_LE(prediction_cost(k, red::max_elements, block, two_pass),
                  cudalab::model_budget_warp_instructions / 20);
      }
    }
}

TEST(reduction_model, rejects_block_sizes_that_are_not_powers_of_two_from_32_to_1024) {
  for (unsigned block : {0u, 16u, 48u, 100u, 96u, 2048u})
    EXPECT_THROW(predict(kernel::sequential, 1000, block), cudalab::usage_error) << block;
  EXPECT_THROW(predict(kernel::sequential, 0, 256), cudalab::usage_error);
  EXPECT_THROW(predict(kernel::sequential, red::max_elements + 1, 256), cudalab::usage_error);
  EXPECT_NO_THROW(predict(kernel::sequential, red::max_elements, 32));
}

}  // namespace
