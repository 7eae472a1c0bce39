// Lab 04 on the CPU: every variant's prediction against its closed form.
//
// With a block that is a multiple of 32, warps start at element 32w of the whole launch, so
// each closed form depends on n only: W = n / 32 full warps and a tail warp of a = n % 32
// lanes. The forms below are derived by hand from the byte ranges a warp touches; the model
// gets there by walking every lane through the kernels' index functions.
#include "coalescing_lab.hpp"

#include "closed_forms/closed_forms.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model_budget.hpp"

namespace cudalab::labs {
namespace {

using closed_forms::ceil_div;
using closed_forms::sectors_spanned;
using closed_forms::u64;

const std::vector<std::size_t> sizes{1, 31, 32, 1000, 12'345, 1'000'003, std::size_t{1} << 20};
const std::vector<int> blocks{32, 64, 96, 128, 256, 512, 1024};

model::access_counts predict(coalescing_kind k, std::size_t n, int block, long param = 0) {
  return predict_coalescing(k, launch_config{n, block, param});
}

// Calls check(counts, n, block) with the prediction for `kind` at every launch of the sweep.
template <class Check>
void for_each_prediction(coalescing_kind kind, Check&& check) {
  closed_forms::for_each_launch(
      sizes, blocks, [&](std::size_t n, int block) { check(predict(kind, n, block), n, block); });
}

TEST(coalescing_model, aos_float3_needs_12_sectors_per_request) {
  for_each_prediction(coalescing_kind::aos_float3, [](const auto& c, std::size_t n, int block) {
    const u64 W = n / 32, a = n % 32;
    u64 tail = 0;  // component c of the tail warp: bytes 12*32W + 4c .. of a lanes 12 apart
    if (a > 0)
      for (u64 comp = 0; comp < 3; ++comp) tail += sectors_spanned(4 * comp, 12 * (a - 1) + 4);
    EXPECT_EQ(c.global_ld_requests, 3 * ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_ld_sectors, 3 * 12 * W + tail) << n << " " << block;
    EXPECT_EQ(c.global_st_requests, 2 * c.global_ld_requests);
    EXPECT_EQ(c.global_st_sectors, 2 * c.global_ld_sectors);
    EXPECT_EQ(c.global_ld_bytes, 12 * n);
    EXPECT_EQ(c.shared_ld_instructions + c.shared_st_instructions, 0u);
  });
  // The figures ncu measured on an H100 (docs/access_model.md) are this closed form at 2^20.
  const auto big = predict(coalescing_kind::aos_float3, std::size_t{1} << 20, 256);
  EXPECT_EQ(big.global_ld_requests, 98'304u);
  EXPECT_EQ(big.global_ld_sectors, 1'179'648u);
  EXPECT_EQ(big.global_st_requests, 196'608u);
  EXPECT_EQ(big.global_st_sectors, 2'359'296u);
  EXPECT_EQ(big.global_ld_sectors / big.global_ld_requests, 12u);
}

TEST(coalescing_model, staged_moves_whole_sectors_and_its_tile_is_conflict_free) {
  for_each_prediction(coalescing_kind::aos_float3_staged,
                      [](const auto& c, std::size_t n, int block) {
                        // Every aligned group of 32 floats below 3n is one request; the sectors are
                        // exactly those covering the 12n bytes.
                        EXPECT_EQ(c.global_ld_requests, ceil_div(3 * n, 32)) << n << " " << block;
                        EXPECT_EQ(c.global_ld_sectors, ceil_div(12 * n, 32)) << n << " " << block;
                        EXPECT_EQ(c.global_st_requests, 2 * ceil_div(3 * n, 32));
                        EXPECT_EQ(c.global_st_sectors, 2 * ceil_div(12 * n, 32));
                        EXPECT_EQ(c.global_ld_sectors, float3_ideal_ld_sectors(n));
                        EXPECT_EQ(c.global_st_sectors, float3_ideal_st_sectors(n));
                        // Shared: one STS (staging) and one LDS (write-back) per request, plus 3
                        // LDS and 3 STS per warp for the update at words 3t+c; every one of them a
                        // single wavefront.
                        const u64 instructions = ceil_div(3 * n, 32) + 3 * ceil_div(n, 32);
                        EXPECT_EQ(c.shared_ld_instructions, instructions) << n << " " << block;
                        EXPECT_EQ(c.shared_st_instructions, instructions) << n << " " << block;
                        EXPECT_EQ(c.shared_ld_wavefronts, instructions);
                        EXPECT_EQ(c.shared_st_wavefronts, instructions);
                        EXPECT_EQ(c.shared_ld_conflicts, 0u);
                        EXPECT_EQ(c.shared_st_conflicts, 0u);
                      });
}

TEST(coalescing_model, staged_with_a_block_not_a_multiple_of_8_wastes_partial_sectors) {
  // 100 threads: a block's 300 floats start at 1200 bytes a block, not on a sector boundary, so
  // some warps straddle one more sector than their bytes need; the tile is still conflict-free.
  const std::size_t n = 100'000;
  const auto c = predict(coalescing_kind::aos_float3_staged, n, 100);
  EXPECT_GT(c.global_ld_sectors, float3_ideal_ld_sectors(n));
  EXPECT_EQ(c.global_ld_bytes, 12 * n);
  EXPECT_EQ(c.shared_ld_conflicts + c.shared_st_conflicts, 0u);
}

TEST(coalescing_model, aos_float4_is_one_16_byte_access_at_16_sectors_per_request) {
  for_each_prediction(coalescing_kind::aos_float4, [](const auto& c, std::size_t n, int block) {
    EXPECT_EQ(c.global_ld_requests, ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_ld_sectors, ceil_div(16 * n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_st_requests, 2 * ceil_div(n, 32));
    EXPECT_EQ(c.global_st_sectors, 2 * ceil_div(16 * n, 32));
  });
  const auto full = predict(coalescing_kind::aos_float4, std::size_t{1} << 20, 256);
  EXPECT_EQ(full.global_ld_sectors / full.global_ld_requests, 16u);
}

TEST(coalescing_model, soa_is_three_coalesced_arrays) {
  for_each_prediction(coalescing_kind::soa, [](const auto& c, std::size_t n, int block) {
    EXPECT_EQ(c.global_ld_requests, 3 * ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_ld_sectors, 3 * ceil_div(4 * n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_st_requests, 6 * ceil_div(n, 32));
    EXPECT_EQ(c.global_st_sectors, 6 * ceil_div(4 * n, 32));
  });
}

TEST(coalescing_model, char_per_thread_and_uchar4_touch_the_same_sectors_in_4x_the_requests) {
  for (std::size_t n : sizes)
    for (int block : blocks) {
      const auto bytes = predict(coalescing_kind::char_per_thread, n, block);
      EXPECT_EQ(bytes.global_ld_requests, ceil_div(n, 32)) << n << " " << block;
      EXPECT_EQ(bytes.global_ld_sectors, ceil_div(n, 32)) << n << " " << block;
      EXPECT_EQ(bytes.global_st_sectors, ceil_div(n, 32));
      const auto packed = predict(coalescing_kind::uchar4_packed, n, block);
      const u64 words = ceil_div(n, 4);
      EXPECT_EQ(packed.global_ld_requests, ceil_div(words, 32)) << n << " " << block;
      EXPECT_EQ(packed.global_ld_sectors, ceil_div(4 * words, 32)) << n << " " << block;
      EXPECT_EQ(packed.global_st_requests, ceil_div(words, 32));
      EXPECT_EQ(packed.global_st_sectors, ceil_div(4 * words, 32));
    }
  const std::size_t n = std::size_t{1} << 20;
  const auto bytes = predict(coalescing_kind::char_per_thread, n, 256);
  const auto packed = predict(coalescing_kind::uchar4_packed, n, 256);
  EXPECT_EQ(bytes.global_ld_sectors, packed.global_ld_sectors);
  EXPECT_EQ(bytes.global_ld_requests, 4 * packed.global_ld_requests);
}

TEST(coalescing_model, offset_sweep_costs_a_fifth_sector_unless_a_multiple_of_8_floats) {
  const std::size_t n = std::size_t{1} << 20;
  for (long k = 0; k <= max_offset; ++k) {
    const auto c = predict(coalescing_kind::offset, n, 256, k);
    const u64 per_request = (4 * k) % 32 != 0 ? 5 : 4;
    EXPECT_EQ(c.global_ld_requests, n / 32) << "offset " << k;
    EXPECT_EQ(c.global_ld_sectors, per_request * (n / 32)) << "offset " << k;
    EXPECT_EQ(c.global_st_requests, n / 32) << "offset " << k;
    EXPECT_EQ(c.global_st_sectors, per_request * (n / 32)) << "offset " << k;
  }
  EXPECT_EQ(predict(coalescing_kind::offset, n, 256, 1).global_ld_sectors, 163'840u);
}

TEST(coalescing_model, offset_tail_warp_spans_only_its_own_bytes) {
  for (std::size_t n : sizes)
    for (long k : {0L, 1L, 7L, 8L, 31L, 32L}) {
      const auto c = predict(coalescing_kind::offset, n, 96, k);
      const u64 W = n / 32, a = n % 32;
      u64 expected = 0;
      for (u64 w = 0; w < W; ++w) expected += sectors_spanned(4 * (32 * w + k), 128);
      expected += sectors_spanned(4 * (32 * W + k), 4 * a);
      EXPECT_EQ(c.global_ld_sectors, expected) << n << " offset " << k;
      EXPECT_EQ(c.global_st_sectors, expected) << n << " offset " << k;
      EXPECT_EQ(c.global_ld_requests, ceil_div(n, 32));
    }
}

TEST(coalescing_model, stride_sweep_needs_min_32_4s_sectors_per_request) {
  const std::size_t n = std::size_t{1} << 20;
  for (long s = 1; s <= max_stride; ++s) {
    const auto c = predict(coalescing_kind::stride, n, 256, s);
    const u64 per_request = std::min<u64>(32, 4 * static_cast<u64>(s));
    EXPECT_EQ(c.global_ld_requests, n / 32) << "stride " << s;
    EXPECT_EQ(c.global_ld_sectors, per_request * (n / 32)) << "stride " << s;
    EXPECT_EQ(c.global_st_requests, n / 32) << "stride " << s;
    EXPECT_EQ(c.global_st_sectors, 4 * (n / 32)) << "stride " << s;  // out[i] is coalesced
  }
  EXPECT_EQ(predict(coalescing_kind::stride, n, 256, 32).global_ld_sectors, 1'048'576u);
}

TEST(coalescing_model, stride_tail_warp) {
  const std::size_t n = 1'000'003;  // 31,250 full warps and 3 lanes
  for (long s : {1L, 2L, 3L, 7L, 8L, 32L}) {
    const auto c = predict(coalescing_kind::stride, n, 1024, s);
    const u64 W = n / 32, a = n % 32;
    const u64 tail = s >= 8 ? a : sectors_spanned(0, 4 * static_cast<u64>(s) * (a - 1) + 4);
    EXPECT_EQ(c.global_ld_sectors, W * std::min<u64>(32, 4 * static_cast<u64>(s)) + tail) << s;
    EXPECT_EQ(c.global_st_sectors, ceil_div(4 * n, 32)) << s;
  }
}

TEST(coalescing_model, float3_family_reads_and_writes_the_same_useful_bytes) {
  // Ideal work is the same for every float3 layout, so their GB/s compare directly; float4's
  // padding shows up as extra sectors, not as extra useful bytes.
  const std::size_t n = 4096;
  EXPECT_EQ(float3_ideal(n).bytes, 36.0 * n);
  for (auto k :
       {coalescing_kind::aos_float3, coalescing_kind::aos_float3_staged, coalescing_kind::soa}) {
    const auto c = predict(k, n, 256);
    EXPECT_EQ(c.global_ld_bytes, 12 * n);
    EXPECT_EQ(c.global_st_bytes, 24 * n);
  }
  const auto f4 = predict(coalescing_kind::aos_float4, n, 256);
  EXPECT_EQ(f4.global_ld_bytes, 16 * n);  // the lanes ask for w too
}

const coalescing_kind every_kind[] = {
    coalescing_kind::aos_float3,      coalescing_kind::aos_float3_staged,
    coalescing_kind::aos_float4,      coalescing_kind::soa,
    coalescing_kind::char_per_thread, coalescing_kind::uchar4_packed,
    coalescing_kind::offset,          coalescing_kind::stride};

// The sweep values a kind takes (one value for the kinds that do not sweep).
std::vector<long> params_of(coalescing_kind k) {
  std::vector<long> p;
  if (k == coalescing_kind::offset)
    for (long v = 0; v <= max_offset; ++v) p.push_back(v);
  else if (k == coalescing_kind::stride)
    for (long v = 1; v <= max_stride; ++v) p.push_back(v);
  else
    p.push_back(0);
  return p;
}

TEST(coalescing_model, repeating_blocks_count_the_same_as_walking_every_block) {
  // Odd sizes and blocks, blocks that are not a multiple of 32 or 8, sizes below one block,
  // every sweep value.
  const std::vector<std::size_t> odd_sizes{1, 31, 33, 1000, 4097, 12'345, 100'003};
  const std::vector<int> odd_blocks{1, 3, 32, 33, 96, 100, 255, 256, 1000, 1024};
  for (coalescing_kind k : every_kind)
    for (long param : params_of(k))
      for (std::size_t n : odd_sizes)
        for (int block : odd_blocks) {
          if (params_of(k).size() > 1 && n > 12'345 && block < 96) continue;  // keep it quick
          const launch_config c{n, block, param};
          ASSERT_EQ(predict_coalescing(k, c), predict_coalescing_every_block(k, c))
              << "kind " << static_cast<int>(k) << " n " << n << " block " << block << " param "
              << param;
        }
}

TEST(coalescing_model, cost_is_the_warp_instructions_the_prediction_builds) {
  for (coalescing_kind k : every_kind)
    for (long param : {1L, 7L, 32L})
      for (std::size_t n :
           {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 24, std::size_t{1} << 36})
        for (int block : {1, 33, 256, 1023, 1024}) {
          const launch_config c{n, block, param};
          const std::uint64_t before = model::warp_accesses_built_on_this_thread();
          (void)predict_coalescing(k, c);
          const std::uint64_t built = model::warp_accesses_built_on_this_thread() - before;
          EXPECT_EQ(coalescing_model_cost(k, c), static_cast<double>(built))
              << "kind " << static_cast<int>(k) << " n " << n << " block " << block;
        }
}

TEST(coalescing_model, cost_of_a_point_does_not_grow_with_the_size) {
  // At most 128 repeating blocks and an edge block of 32 warps of 21 instructions, at any size:
  // every point the GPU could hold predicts far inside the model's budget.
  const double most = 129.0 * 32 * 21;
  for (coalescing_kind k : every_kind)
    for (long param : params_of(k))
      for (int block = 1; block <= 1024; block += 29) {
        const double big =
            coalescing_model_cost(k, launch_config{std::size_t{1} << 36, block, param});
        EXPECT_LE(big, most);
        EXPECT_LE(coalescing_model_cost(k, launch_config{1'000'003, block, param}), most);
      }
  EXPECT_LT(most, model_budget_warp_instructions / 1000);
}

TEST(coalescing_model, largest_sizes_still_match_the_closed_forms) {
  const std::size_t n = std::size_t{1} << 36;
  const auto aos = predict(coalescing_kind::aos_float3, n, 256);
  EXPECT_EQ(aos.global_ld_requests, 3 * (n / 32));
  EXPECT_EQ(aos.global_ld_sectors, 36 * (n / 32));
  const auto soa = predict(coalescing_kind::soa, n + 5, 1024);
  EXPECT_EQ(soa.global_ld_requests, 3 * ceil_div(n + 5, 32));
  EXPECT_EQ(soa.global_st_sectors, 6 * ceil_div(4 * (n + 5), 32));
  const auto stride = predict(coalescing_kind::stride, n, 256, 3);
  EXPECT_EQ(stride.global_ld_sectors, 12 * (n / 32));
}

TEST(coalescing_model, rejects_parameters_outside_the_sweep) {
  EXPECT_THROW(predict(coalescing_kind::offset, 1024, 256, 33), std::invalid_argument);
  EXPECT_THROW(predict(coalescing_kind::offset, 1024, 256, -1), std::invalid_argument);
  EXPECT_THROW(predict(coalescing_kind::stride, 1024, 256, 0), std::invalid_argument);
  EXPECT_THROW(predict(coalescing_kind::aos_float3, 1024, 0), std::invalid_argument);
}

}  // namespace
}  // namespace cudalab::labs
