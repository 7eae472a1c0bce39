// Lab 02's access model on the CPU: the warp-class shortcut against the walk of every warp, and
// the closed forms a learner can derive by hand (memory_model.hpp lists the instructions).
#include "memory_lab.hpp"
#include "memory_model.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/metrics.hpp"

#include <gtest/gtest.h>

#include <set>

namespace cudalab::labs {
namespace {

using memory_model::kernel;
using memory_model::walk;
namespace mem = cudalab::memory;

constexpr kernel every_kernel[] = {kernel::coeffs_global,      kernel::coeffs_constant,
                                   kernel::constant_divergent, kernel::coeffs_shared,
                                   kernel::local_spill,        kernel::registers};

TEST(memory_model, warp_classes_equal_the_walk_of_every_warp) {
  for (const kernel k : every_kernel)
    for (const std::size_t n : {1ul, 31ul, 32ul, 1000ul, 4099ul, 100003ul})
      for (const unsigned block : {16u, 32u, 96u, 100u, 256u, 1024u})
        EXPECT_EQ(memory_model::predict(k, n, block, spill_step),
                  memory_model::predict(k, n, block, spill_step, walk::every_warp))
            << "kernel " << static_cast<int>(k) << " n " << n << " block " << block;
}

// A full warp's 32 consecutive floats are 128 bytes on 4 sectors, loaded once (x) and stored
// once (out); each of the 16 coefficients is one address for every lane: 1 sector a request.
TEST(memory_model, coeffs_global_reads_each_coefficient_as_a_one_sector_request) {
  const std::size_t n = 1 << 20;
  const std::uint64_t warps = n / 32;
  const auto c = memory_model::predict(kernel::coeffs_global, n, 256, spill_step);
  EXPECT_EQ(c.global_ld_requests, warps * (1 + mem::poly_terms));
  EXPECT_EQ(c.global_ld_sectors, warps * (4 + mem::poly_terms));
  EXPECT_EQ(c.global_st_requests, warps);
  EXPECT_EQ(c.global_st_sectors, warps * 4);
}

TEST(memory_model, constant_and_register_kernels_load_only_x) {
  const std::size_t n = 1 << 20;
  const std::uint64_t warps = n / 32;
  for (const kernel k : {kernel::coeffs_constant, kernel::constant_divergent, kernel::registers}) {
    const auto c = memory_model::predict(k, n, 256, spill_step);
    EXPECT_EQ(c.global_ld_requests, warps);
    EXPECT_EQ(c.global_ld_sectors, warps * 4);
    EXPECT_EQ(c.local_ld_sectors + c.local_st_sectors, 0u);
  }
}

// The block's first warp copies the 16 coefficients (64 bytes: 2 sectors, one request) and
// stores them to shared memory; every warp then reads them with 4 broadcast LDS.128.
TEST(memory_model, coeffs_shared_loads_the_coefficients_once_a_block) {
  const std::size_t n = 1 << 20;
  const unsigned block = 256;
  const std::uint64_t warps = n / 32, blocks = n / block;
  const auto c = memory_model::predict(kernel::coeffs_shared, n, block, spill_step);
  EXPECT_EQ(c.global_ld_requests, warps + blocks);
  EXPECT_EQ(c.global_ld_sectors, warps * 4 + blocks * 2);
  EXPECT_EQ(c.shared_st_instructions, blocks);
  EXPECT_EQ(c.shared_ld_instructions, warps * 4);
  EXPECT_EQ(c.shared_ld_conflicts, 0u);
}

// Word w of lane l at (32 w + l) * 4: a warp storing its word w writes 128 consecutive bytes.
// 16 STL of 4 sectors, and 4 LDL.128 counted as 4 requests of 4 sectors each (one a word):
// 16 requests and 64 sectors each way, a full warp.
TEST(memory_model, local_spill_moves_64_sectors_each_way_a_full_warp) {
  const std::size_t n = 1 << 20;
  const std::uint64_t warps = n / 32;
  const auto c = memory_model::predict(kernel::local_spill, n, 256, spill_step);
  EXPECT_EQ(c.local_st_requests, warps * mem::spill_words);
  EXPECT_EQ(c.local_st_sectors, warps * mem::spill_words * 4);
  EXPECT_EQ(c.local_ld_requests, warps * mem::spill_words);
  EXPECT_EQ(c.local_ld_sectors, warps * mem::spill_words * 4);
  // Local traffic stays out of the global counters.
  EXPECT_EQ(c.global_ld_requests, warps);
  EXPECT_EQ(c.global_st_requests, warps);
}

TEST(memory_model, interleaved_local_words_are_coalesced_and_distinct_words_are_not) {
  std::set<std::uint64_t> same_word, lane_own_word;
  for (unsigned lane = 0; lane < 32; ++lane) {
    same_word.insert(mem::local_word_address(0, 7, lane) / 32);
    lane_own_word.insert(mem::local_word_address(0, lane % 16, lane) / 32);
  }
  EXPECT_EQ(same_word.size(), 4u);
  EXPECT_EQ(lane_own_word.size(), 32u);
}

TEST(memory_model, a_partial_warp_stores_only_its_lanes_sectors) {
  // n = 40: one full warp and one of 8 lanes (8 lanes x 4 bytes = one sector a word).
  const auto c = memory_model::predict(kernel::local_spill, 40, 64, spill_step);
  EXPECT_EQ(c.local_st_sectors, mem::spill_words * (4 + 1));
  EXPECT_EQ(c.local_st_requests, 2u * mem::spill_words);
  // Loads the same: each LDL.128 is a request a word, one sector a word for the 8 lanes.
  EXPECT_EQ(c.local_ld_sectors, mem::spill_words * (4 + 1));
  EXPECT_EQ(c.local_ld_requests, 2u * mem::spill_words);
}

TEST(memory_model, spill_slot_is_a_permutation_for_odd_steps) {
  for (unsigned step = 1; step < 32; step += 2) {
    std::set<unsigned> slots;
    for (unsigned k = 0; k < mem::spill_words; ++k) slots.insert(mem::spill_slot(k, step));
    EXPECT_EQ(slots.size(), mem::spill_words) << step;
  }
}

// constant_divergent: lane i reads set i mod 32. A full warp aligned to 32 elements asks for 32
// addresses in each of its 8 LDC.64: 8 divergent instructions and 8 x 31 replays a warp.
TEST(memory_model, constant_divergent_replays_31_times_an_ldc_of_a_full_warp) {
  const std::size_t n = 1 << 20;
  const std::uint64_t warps = n / 32;
  const auto c = memory_model::predict_constant(kernel::constant_divergent, n, 256);
  EXPECT_EQ(c.ldc_instructions, warps * mem::poly_terms / 2);
  EXPECT_EQ(c.divergent_instructions, warps * mem::poly_terms / 2);
  EXPECT_EQ(c.replays, warps * mem::poly_terms / 2 * 31);
  for (const kernel k : {kernel::coeffs_global, kernel::coeffs_constant, kernel::coeffs_shared}) {
    const auto none = memory_model::predict_constant(k, n, 256);
    EXPECT_EQ(none.ldc_instructions + none.divergent_instructions + none.replays, 0u);
  }
}

// The run's predictions carry the constant cache, so the table, --details and the CSV print the
// model beside the counters (`constant_divergent_inst`, `constant_replays`), and run's verdict
// holds the counters to it.
TEST(memory_model, predictions_carry_the_constant_cache_the_catalogue_reads) {
  const std::size_t n = 100003;
  for (const kernel k :
       {kernel::constant_divergent, kernel::coeffs_constant, kernel::coeffs_global}) {
    const model::access_counts p = memory_model::predict(k, n, 256, 1);
    const auto c = memory_model::predict_constant(k, n, 256);
    ASSERT_TRUE(p.constant_cache.has_value());
    EXPECT_EQ(find_metric("constant_divergent_inst")->model(p),
              static_cast<double>(c.divergent_instructions));
    EXPECT_EQ(find_metric("constant_replays")->model(p), static_cast<double>(c.replays));
  }
  // A total with an unmodelled launch is not a prediction of the constant cache.
  const model::access_counts p = memory_model::predict(kernel::constant_divergent, n, 256, 1);
  EXPECT_FALSE((p + model::access_counts{}).constant_cache.has_value());
  EXPECT_EQ((p + p).constant_cache->replays, 2 * p.constant_cache->replays);
  EXPECT_EQ(p.scaled(3).constant_cache->divergent_instructions,
            3 * p.constant_cache->divergent_instructions);
}

TEST(memory_model, distinct_constant_addresses_follow_the_lanes_sets) {
  EXPECT_EQ(memory_model::distinct_constant_addresses(0, 32), 32u);
  EXPECT_EQ(memory_model::distinct_constant_addresses(5, 1), 1u);
  EXPECT_EQ(memory_model::distinct_constant_addresses(30, 4), 4u);  // sets 30, 31, 0, 1
  // One element a warp (block of 1): no replay at all.
  const auto c = memory_model::predict_constant(kernel::constant_divergent, 64, 1);
  EXPECT_EQ(c.ldc_instructions, 64u * mem::poly_terms / 2);
  EXPECT_EQ(c.divergent_instructions, 0u);
  EXPECT_EQ(c.replays, 0u);
}

}  // namespace
}  // namespace cudalab::labs
