// The tracer's lane folding (cudalab/trace/lane_fold.hpp), run on the host over synthetic lane
// sets, gives the access model's counts for the same lanes: sectors and requested bytes for
// global accesses, wavefronts and ideal wavefronts (so conflicts) for shared ones, at every width
// and for any set of active lanes. The patch runs the same steps with shuffles.
#include "cudalab/model/access_model.hpp"
#include "cudalab/trace/lane_fold_host.hpp"

#include <gtest/gtest.h>

#include <random>

namespace cudalab::trace {
namespace {

using model::access_kind;
using model::memory_space;
using model::warp_access;

// The model's counts and the fold's, for one access, side by side.
void expect_same_counts(const warp_access& access, const std::string& what) {
  const model::access_counts m = model::count_warp_access(access);
  const folded_access f = fold_on_host(access);
  if (access.space == memory_space::global) {
    EXPECT_EQ(f.sectors, m.global_ld_sectors + m.global_st_sectors) << what;
    EXPECT_EQ(f.bytes, m.global_ld_bytes + m.global_st_bytes) << what;
  } else {
    EXPECT_EQ(f.wavefronts, m.shared_ld_wavefronts + m.shared_st_wavefronts) << what;
    EXPECT_EQ(f.wavefronts - f.ideal, m.shared_ld_conflicts + m.shared_st_conflicts) << what;
  }
}

// The fold's wavefronts and ideal for one shared access, and the model's counts beside them.
void expect_fold(const warp_access& access, std::uint64_t wavefronts, std::uint64_t ideal,
                 const std::string& what) {
  EXPECT_EQ(fold_on_host(access).wavefronts, wavefronts) << what;
  EXPECT_EQ(fold_on_host(access).ideal, ideal) << what;
  expect_same_counts(access, what);
}

warp_access lanes(memory_space space, unsigned width, std::uint64_t base, std::uint64_t stride,
                  std::uint32_t active = ~0u) {
  warp_access a = warp_access::make(space, access_kind::load, width);
  for (int j = 0; j < 32; ++j)
    if ((active >> j) & 1u) a.address[static_cast<std::size_t>(j)] = base + stride * j;
  return a;
}

TEST(trace_lane_fold, coalesced_float_load_touches_4_sectors) {
  const warp_access a = lanes(memory_space::global, 4, 1 << 20, 4);
  EXPECT_EQ(fold_on_host(a).sectors, 4u);
  expect_same_counts(a, "coalesced");
}

TEST(trace_lane_fold, float3_component_load_touches_12_sectors) {
  const warp_access a = lanes(memory_space::global, 4, 1 << 20, 12);
  EXPECT_EQ(fold_on_host(a).sectors, 12u);
  expect_same_counts(a, "aos float3");
}

TEST(trace_lane_fold, stride_32_gather_touches_32_sectors) {
  const warp_access a = lanes(memory_space::global, 4, 1 << 20, 128);
  EXPECT_EQ(fold_on_host(a).sectors, 32u);
  expect_same_counts(a, "stride 32");
}

TEST(trace_lane_fold, vector_widths_match_the_model) {
  for (unsigned width : {1u, 2u, 4u, 8u, 16u})
    for (std::uint64_t stride :
         {std::uint64_t{width}, std::uint64_t{2} * width, std::uint64_t{64}, std::uint64_t{0}})
      expect_same_counts(
          lanes(memory_space::global, width, 4096, stride),
          "global width " + std::to_string(width) + " stride " + std::to_string(stride));
}

TEST(trace_lane_fold, transpose_column_read_has_31_conflicts_and_padding_none) {
  // 32x32 float tile: lane j reads row j of one column: word 32 j (every lane in bank 0).
  const warp_access column = lanes(memory_space::shared, 4, 0, 32 * 4);
  expect_fold(column, 32u, 1u, "unpadded column");
  const warp_access padded = lanes(memory_space::shared, 4, 0, 33 * 4);
  EXPECT_EQ(fold_on_host(padded).wavefronts, 1u);
  expect_same_counts(padded, "padded column");
}

TEST(trace_lane_fold, broadcast_costs_one_wavefront) {
  const warp_access a = lanes(memory_space::shared, 4, 64, 0);
  EXPECT_EQ(fold_on_host(a).wavefronts, 1u);
  expect_same_counts(a, "broadcast");
}

TEST(trace_lane_fold, eight_and_sixteen_byte_shared_accesses_run_in_phases) {
  // Conflict-free: 2 wavefronts (two half-warp phases) for 8 bytes, 4 for 16 bytes.
  const warp_access d = lanes(memory_space::shared, 8, 0, 8);
  expect_fold(d, 2u, 2u, "float2 row");
  // A float4 row load: each half-warp's two quarters each put one word in every bank (8 lanes x
  // 4 words = 32 banks); the quarters' counts add, so each half costs 2 and its ideal is
  // min(2 quarters, 2) = 2.
  const warp_access q = lanes(memory_space::shared, 16, 0, 16);
  expect_fold(q, 4u, 4u, "float4 row");
  // Every lane loads one float4: each half reads one address, a single broadcast wavefront.
  const warp_access one = lanes(memory_space::shared, 16, 0, 0);
  expect_fold(one, 2u, 2u, "float4 broadcast");
  // Stride 32 bytes: in a quarter lanes j and j + 4 share banks (2 words in each of 16 banks);
  // both quarters do the same, so those banks serve 4 words: 4 per half, ideal min(2, 4) = 2.
  const warp_access gapped = lanes(memory_space::shared, 16, 0, 32);
  expect_fold(gapped, 8u, 4u, "float4 every other");
  // Stores keep four quarter-warp phases of one wavefront each.
  warp_access stored = lanes(memory_space::shared, 16, 0, 16);
  stored.kind = access_kind::store;
  expect_fold(stored, 4u, 4u, "float4 row store");
  for (std::uint64_t stride : {16u, 32u, 64u, 128u, 256u, 0u}) {
    expect_same_counts(lanes(memory_space::shared, 8, 0, stride),
                       "8-byte stride " + std::to_string(stride));
    expect_same_counts(lanes(memory_space::shared, 16, 0, stride),
                       "16-byte stride " + std::to_string(stride));
  }
}

TEST(trace_lane_fold, partial_warps_and_empty_phases_match_the_model) {
  // Lanes 0-7 only: a 16-byte access then has one phase with lanes, an 8-byte one one half.
  for (unsigned width : {4u, 8u, 16u}) {
    expect_same_counts(lanes(memory_space::shared, width, 0, width, 0x000000ffu), "low lanes");
    expect_same_counts(lanes(memory_space::shared, width, 0, width, 0xff000000u), "high lanes");
    expect_same_counts(lanes(memory_space::shared, width, 0, 128, 0x80000001u), "two lanes");
    expect_same_counts(lanes(memory_space::global, width, 0, 96, 0x0000ffffu), "half warp");
  }
}

TEST(trace_lane_fold, random_aligned_lane_sets_match_the_model) {
  std::mt19937_64 random(20261123);
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned width = 1u << (random() % 5);  // 1, 2, 4, 8, 16
    const memory_space space = random() % 2 ? memory_space::shared : memory_space::global;
    const access_kind kind = random() % 2 ? access_kind::load : access_kind::store;
    warp_access a = warp_access::make(space, kind, width);
    // A small window, so that lanes share sectors, words and banks often.
    const std::uint64_t window = (trial % 3 == 0) ? 256 : 4096;
    const std::uint32_t active = static_cast<std::uint32_t>(random());
    for (int j = 0; j < 32; ++j)
      if ((active >> j) & 1u)
        a.address[static_cast<std::size_t>(j)] = (random() % window) / width * width;
    expect_same_counts(a, "trial " + std::to_string(trial) + " width " + std::to_string(width));
    if (HasFailure()) break;
  }
}

TEST(trace_lane_fold, no_active_lane_counts_nothing) {
  const warp_access a = warp_access::make(memory_space::shared, access_kind::store, 4);
  const folded_access f = fold_on_host(a);
  EXPECT_EQ(f.wavefronts, 0u);
  EXPECT_EQ(f.ideal, 0u);
}

}  // namespace
}  // namespace cudalab::trace
