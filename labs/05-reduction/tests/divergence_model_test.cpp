// Lab 05's divergence model against its closed forms: interleaved_divergent splits every warp
// at strides 1..16 and, at strides of 32 and more, each warp whose lane 0 is still active
// (5 * block/32 + block/32 - 1 divergent branches a block); the predicated trees never split.
#include "reduction_divergence_model.hpp"

#include "cudalab/check.hpp"

#include <gtest/gtest.h>

namespace {

using cudalab::labs::reduction_model::kernel;
using cudalab::labs::reduction_model::predict_divergence;

TEST(divergence_model, interleaved_divergent_splits_5_warps_per_32_threads_plus_all_but_one) {
  for (unsigned block : {32u, 64u, 128u, 256u, 512u, 1024u}) {
    const std::uint64_t warps = block / 32;
    const auto d = predict_divergence(kernel::interleaved_divergent, block, block);
    EXPECT_EQ(d.divergent_branches, 5 * warps + warps - 1) << "block " << block;
    EXPECT_EQ(d.body_warps, d.divergent_branches) << "no step runs a whole warp";
    EXPECT_EQ(d.body_lanes, block - 1u) << "block/2 + block/4 + ... + 1 additions";
  }
}

TEST(divergence_model, at_256_threads_a_block_it_is_47_a_block_with_5_4_lanes_per_warp) {
  const std::size_t n = std::size_t{1} << 24;  // 65,536 blocks
  const auto d = predict_divergence(kernel::interleaved_divergent, n, 256);
  EXPECT_EQ(d.divergent_branches, 47u * 65536);  // 3,080,192: what the H100 measured at 2^24
  EXPECT_NEAR(d.body_lanes_per_warp(), 255.0 / 47.0, 1e-12);
}

TEST(divergence_model, a_partial_last_block_diverges_like_a_whole_one) {
  const auto whole = predict_divergence(kernel::interleaved_divergent, 4 * 256, 256);
  const auto partial = predict_divergence(kernel::interleaved_divergent, 3 * 256 + 1, 256);
  EXPECT_EQ(partial.divergent_branches, whole.divergent_branches);
}

TEST(divergence_model, the_predicated_trees_never_diverge) {
  for (kernel k :
       {kernel::interleaved_strided, kernel::sequential, kernel::first_add, kernel::warp_shuffle}) {
    const auto d = predict_divergence(k, std::size_t{1} << 20, 256);
    EXPECT_EQ(d.divergent_branches, 0u);
    EXPECT_EQ(d.body_lanes_per_warp(), 32.0);
  }
}

TEST(divergence_model, bad_blocks_and_unmodelled_kernels_are_usage_errors) {
  EXPECT_THROW(predict_divergence(kernel::interleaved_divergent, 1024, 48), cudalab::usage_error);
  EXPECT_THROW(predict_divergence(kernel::grid_stride, 1024, 256), cudalab::usage_error);
}

}  // namespace
