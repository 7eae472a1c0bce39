// Lab 04's particle case on the CPU: the model against closed forms, and the registration.
//
// A particle is a 32-byte record and the cudaMalloc base is 256-byte aligned, so particle i's
// charge (bytes 32i + 28 .. 32i + 31) lies in sector i of the records: an AoS load touches one
// sector per active lane. The SoA charges, like the force array of both layouts, are
// contiguous floats: a warp of a active lanes starting at element s spans the bytes
// [4s, 4s + 4a). With a block that is a multiple of 32, warps start at element 32w, so for n
// particles: W = n / 32 full warps of 4 sectors and a tail of a = n % 32 lanes in ceil(a / 8)
// sectors, ceil(n / 8) sectors in all.
#include "coalescing_lab.hpp"
#include "coalescing_particles.hpp"

#include "closed_forms/closed_forms.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cudalab::labs {
namespace {

using closed_forms::ceil_div;
using closed_forms::sectors_spanned;
using closed_forms::u64;

const std::vector<std::size_t> sizes{1, 31, 32, 33, 1000, 12'345, 100'003};
const std::vector<int> blocks{32, 64, 96, 256, 1024};

model::access_counts predict(particle_layout layout, std::size_t n, int block) {
  return predict_particles(layout, launch_config{n, block, 0});
}

// Calls check(counts, n, block) with the prediction for `kind` at every launch of the sweep.
template <class Check>
void for_each_prediction(particle_layout kind, Check&& check) {
  closed_forms::for_each_launch(
      sizes, blocks, [&](std::size_t n, int block) { check(predict(kind, n, block), n, block); });
}

// Warps of the launch, block by block: warp k of block b holds elements bT + 32k onwards, at
// most 32 and never past the block or n. Calls fn(first element, active lanes).
template <class Fn>
void each_warp_range(std::size_t n, int block, Fn&& fn) {
  const u64 t = static_cast<u64>(block);
  for (u64 start = 0; start < n; start += t)
    for (u64 first = start; first < std::min<u64>(start + t, n); first += 32)
      fn(first, std::min<u64>({32, start + t - first, n - first}));
}

TEST(particle_model, aos_loads_one_sector_per_particle_32_per_request) {
  for_each_prediction(particle_layout::aos, [](const auto& c, std::size_t n, int block) {
    EXPECT_EQ(c.global_ld_requests, ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_ld_sectors, n) << n << " " << block;
    EXPECT_EQ(c.global_ld_bytes, 4 * n);
    EXPECT_EQ(c.global_st_requests, ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_st_sectors, ceil_div(n, 8)) << n << " " << block;
    EXPECT_EQ(c.global_st_bytes, 4 * n);
    EXPECT_EQ(c.shared_ld_instructions + c.shared_st_instructions, 0u);
  });
}

TEST(particle_model, soa_loads_4_sectors_per_request) {
  for_each_prediction(particle_layout::soa, [](const auto& c, std::size_t n, int block) {
    EXPECT_EQ(c.global_ld_requests, ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_ld_sectors, ceil_div(n, 8)) << n << " " << block;
    EXPECT_EQ(c.global_ld_bytes, 4 * n);
    EXPECT_EQ(c.global_st_requests, ceil_div(n, 32)) << n << " " << block;
    EXPECT_EQ(c.global_st_sectors, ceil_div(n, 8)) << n << " " << block;
    EXPECT_EQ(c.global_st_bytes, 4 * n);
  });
}

TEST(particle_model, blocks_that_are_not_a_multiple_of_32_end_in_partial_warps) {
  // A block of T threads is ceil(T / 32) warps; the last has T % 32 lanes. A block of 100
  // starts 400 bytes after the previous one, so every other block's contiguous warps straddle
  // an extra sector; AoS records stay one sector each whatever the warp.
  for (std::size_t n : sizes)
    for (int block : {1, 48, 100, 1000}) {
      const u64 t = static_cast<u64>(block);
      const u64 requests = n / t * ceil_div(t, 32) + ceil_div(n % t, 32);
      u64 contiguous_sectors = 0;
      each_warp_range(n, block, [&](u64 first, u64 lanes) {
        contiguous_sectors += sectors_spanned(4 * first, 4 * lanes);
      });
      const auto aos = predict(particle_layout::aos, n, block);
      const auto soa = predict(particle_layout::soa, n, block);
      EXPECT_EQ(aos.global_ld_requests, requests) << n << " " << block;
      EXPECT_EQ(aos.global_ld_sectors, n) << n << " " << block;
      EXPECT_EQ(aos.global_st_sectors, contiguous_sectors) << n << " " << block;
      EXPECT_EQ(soa.global_ld_requests, requests) << n << " " << block;
      EXPECT_EQ(soa.global_ld_sectors, contiguous_sectors) << n << " " << block;
      EXPECT_EQ(soa.global_st_requests, requests) << n << " " << block;
      EXPECT_EQ(soa.global_st_sectors, contiguous_sectors) << n << " " << block;
    }
}

TEST(particle_model, aos_loads_8x_the_sectors_of_soa_for_the_same_bytes) {
  const std::size_t n = std::size_t{1} << 20;
  const auto aos = predict(particle_layout::aos, n, 256);
  const auto soa = predict(particle_layout::soa, n, 256);
  EXPECT_EQ(aos.global_ld_requests, 32'768u);
  EXPECT_EQ(aos.global_ld_sectors, 1'048'576u);
  EXPECT_EQ(soa.global_ld_requests, 32'768u);
  EXPECT_EQ(soa.global_ld_sectors, 131'072u);
  EXPECT_EQ(aos.global_ld_sectors / aos.global_ld_requests, 32u);
  EXPECT_EQ(soa.global_ld_sectors / soa.global_ld_requests, 4u);
  EXPECT_EQ(aos.global_ld_bytes, soa.global_ld_bytes);
  // The stores are the same force array in both.
  EXPECT_EQ(aos.global_st_requests, soa.global_st_requests);
  EXPECT_EQ(aos.global_st_sectors, soa.global_st_sectors);
}

TEST(particle_model, aos_loads_touch_the_sectors_of_the_stride_8_gather) {
  // A 32-byte record is 8 floats: reading one field of each is the stride sweep at stride 8.
  for (std::size_t n : {std::size_t{1000}, std::size_t{100'003}}) {
    const auto aos = predict(particle_layout::aos, n, 256);
    const auto gather = predict_coalescing(coalescing_kind::stride, launch_config{n, 256, 8});
    EXPECT_EQ(aos.global_ld_requests, gather.global_ld_requests) << n;
    EXPECT_EQ(aos.global_ld_sectors, gather.global_ld_sectors) << n;
  }
}

TEST(particle_model, ideal_bytes_are_the_charges_read_and_the_forces_written) {
  for (std::size_t n : {std::size_t{1}, std::size_t{12'345}}) {
    const work_counts ideal = particle_ideal(n);
    for (auto layout : {particle_layout::aos, particle_layout::soa}) {
      const auto c = predict(layout, n, 256);
      EXPECT_EQ(ideal.bytes, static_cast<double>(c.global_ld_bytes + c.global_st_bytes)) << n;
    }
    EXPECT_EQ(ideal.flops, static_cast<double>(n));
    EXPECT_EQ(ideal.payload(), ideal.bytes);
    EXPECT_EQ(particle_device_bytes(n), 36 * n);  // 32-byte records (or 8 arrays) and the force
  }
}

TEST(particle_model, rejects_a_block_outside_1_to_1024) {
  EXPECT_THROW(predict(particle_layout::aos, 1024, 0), std::invalid_argument);
  EXPECT_THROW(predict(particle_layout::soa, 1024, 1025), std::invalid_argument);
}

TEST(particle_lab, registers_particles_aos_as_naive_and_particles_soa_as_fixed) {
  const lab l = make_lab_04_coalescing();
  const launch_config c{1000, 256, 0};
  for (const char* name : {"particles_aos", "particles_soa"}) {
    const variant* v = l.find(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->prepare && v->predict && v->ideal && v->device_bytes) << name;
    EXPECT_TRUE(v->has_kernels) << name;
    EXPECT_FALSE(v->sweep) << name;
    EXPECT_EQ(v->ideal(c).bytes, 8000.0) << name;
    EXPECT_EQ(v->device_bytes(c), 36'000u) << name;
  }
  EXPECT_EQ(l.find("particles_aos")->role, variant_role::naive);
  EXPECT_EQ(l.find("particles_soa")->role, variant_role::fixed);
  EXPECT_EQ(l.find("particles_aos")->predict(c), predict(particle_layout::aos, 1000, 256));
  EXPECT_EQ(l.find("particles_soa")->predict(c), predict(particle_layout::soa, 1000, 256));
}

TEST(particle_model, repeating_blocks_count_the_same_as_walking_every_block) {
  for (const particle_layout layout : {particle_layout::aos, particle_layout::soa})
    for (const std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{1000},
                                std::size_t{65'537}, std::size_t{1'000'003}})
      for (const int block : {1, 3, 32, 96, 100, 256, 1024}) {
        if (n > 100'000 && block < 32) continue;  // keep the reference walk quick
        const launch_config c{n, block, 0};
        ASSERT_EQ(predict_particles(layout, c), predict_particles_every_block(layout, c))
            << "n " << n << " block " << block;
      }
}

TEST(particle_model, the_cost_stays_small_at_any_size) {
  // One period of whole blocks and the tail: the cost does not grow with the size.
  for (const particle_layout layout : {particle_layout::aos, particle_layout::soa})
    EXPECT_EQ(particle_model_cost(layout, {std::size_t{1} << 36, 256, 0}),
              particle_model_cost(layout, {std::size_t{1} << 20, 256, 0}));
}

}  // namespace
}  // namespace cudalab::labs
