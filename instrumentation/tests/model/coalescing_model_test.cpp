// The global-memory half of the access model against the closed forms of docs/access_model.md
// (requests = warp instructions with an active lane, sectors = distinct 32-byte segments), at
// n = 2^20 with 256-thread blocks (the sizes the H100 counters were measured at) and at sizes
// that are not a multiple of the warp or of the block, where the last warp is partial.
#include "cudalab/model/access_model.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>

namespace model = cudalab::model;

namespace {

// Useful bytes per sector moved: what smsp__sass_average_data_bytes_per_sector_* reports.
double ld_bytes_per_sector(const model::access_counts& c) {
  return static_cast<double>(c.global_ld_bytes) / static_cast<double>(c.global_ld_sectors);
}
double st_bytes_per_sector(const model::access_counts& c) {
  return static_cast<double>(c.global_st_bytes) / static_cast<double>(c.global_st_sectors);
}

constexpr std::uint64_t n_1m = std::uint64_t{1} << 20;
constexpr unsigned block = 256;
// cudaMalloc bases are 256-byte aligned.
constexpr std::uint64_t in_base = 0x7f1200000000;
constexpr std::uint64_t out_base = 0x7f1300000000;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// One load instruction a thread over a guarded 1D launch: thread i loads `width` bytes at
// base + offset_bytes + i * stride_bytes when i < threads_needed.
model::access_counts one_load_per_thread(std::uint64_t threads_needed, unsigned width,
                                         std::uint64_t stride_bytes,
                                         std::uint64_t offset_bytes = 0) {
  model::access_model m;
  model::for_each_warp(
      model::launch_threads(threads_needed, block), block, [&](const model::warp_threads& w) {
        m.record(model::global_load(w, width, [&](std::uint64_t i) {
          return model::element_address(in_base + offset_bytes, i, stride_bytes, threads_needed);
        }));
      });
  return m.counts();
}

}  // namespace

TEST(coalescing_model, coalesced_float_needs_4_sectors_per_request) {
  const auto c = one_load_per_thread(n_1m, 4, 4);
  EXPECT_EQ(c.global_ld_requests, n_1m / 32);  // 32,768 measured
  EXPECT_EQ(c.global_ld_sectors, n_1m / 8);    // 131,072 measured
  EXPECT_EQ(c.global_ld_sectors, 4 * c.global_ld_requests);
  EXPECT_EQ(c.global_ld_bytes, 4 * n_1m);
  EXPECT_DOUBLE_EQ(ld_bytes_per_sector(c), 32.0);
  EXPECT_EQ(c.global_st_requests, 0u);
}

TEST(coalescing_model, coalesced_float_at_ragged_sizes_counts_the_partial_last_warp) {
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{33},
                          std::uint64_t{300}, std::uint64_t{1000003}, n_1m + 17}) {
    SCOPED_TRACE(n);
    const auto c = one_load_per_thread(n, 4, 4);
    EXPECT_EQ(c.global_ld_requests, ceil_div(n, 32));
    EXPECT_EQ(c.global_ld_sectors, ceil_div(n, 8));
    EXPECT_EQ(c.global_ld_bytes, 4 * n);
  }
}

TEST(coalescing_model, aos_float3_field_needs_12_sectors_per_request) {
  for (std::uint64_t field = 0; field < 3; ++field) {
    const auto c = one_load_per_thread(n_1m, 4, 12, 4 * field);
    EXPECT_EQ(c.global_ld_requests, n_1m / 32);
    EXPECT_EQ(c.global_ld_sectors, 12 * c.global_ld_requests);
  }
}

// in[i].x += v; in[i].y += v; in[i].z += v; out[i] = in[i]; with float3 in/out: per thread
// 3 LDG.32 (x, y, z) and 6 STG.32 (three write-backs into in, three components of out).
TEST(coalescing_model, aos_float3_kernel_matches_the_measured_h100_totals) {
  model::access_model m;
  const auto field = [](std::uint64_t base, unsigned component) {
    return
        [=](std::uint64_t i) { return model::element_address(base + 4 * component, i, 12, n_1m); };
  };
  model::for_each_warp(model::launch_threads(n_1m, block), block,
                       [&](const model::warp_threads& w) {
                         for (unsigned k = 0; k < 3; ++k) {
                           m.record(model::global_load(w, 4, field(in_base, k)));
                         }
                         for (unsigned k = 0; k < 3; ++k) {
                           m.record(model::global_store(w, 4, field(in_base, k)));
                         }
                         for (unsigned k = 0; k < 3; ++k) {
                           m.record(model::global_store(w, 4, field(out_base, k)));
                         }
                       });
  const auto& c = m.counts();
  // Closed forms 3n/32, 36n/32, 6n/32, 72n/32 and the figures ncu measured on the H100.
  EXPECT_EQ(c.global_ld_requests, 3 * n_1m / 32);
  EXPECT_EQ(c.global_ld_requests, 98304u);
  EXPECT_EQ(c.global_ld_sectors, 1179648u);
  EXPECT_EQ(c.global_st_requests, 196608u);
  EXPECT_EQ(c.global_st_sectors, 2359296u);
  EXPECT_NEAR(ld_bytes_per_sector(c), 128.0 / 12.0, 1e-12);
  EXPECT_NEAR(st_bytes_per_sector(c), 128.0 / 12.0, 1e-12);
}

TEST(coalescing_model, strided_float_needs_min_32_4s_sectors_per_request) {
  for (std::uint64_t s : {1, 2, 3, 4, 7, 8, 16, 32, 33}) {
    SCOPED_TRACE(s);
    const auto c = one_load_per_thread(n_1m, 4, 4 * s);
    EXPECT_EQ(c.global_ld_requests, n_1m / 32);
    EXPECT_EQ(c.global_ld_sectors, std::min<std::uint64_t>(32, 4 * s) * n_1m / 32);
  }
  EXPECT_EQ(one_load_per_thread(n_1m, 4, 8).global_ld_sectors, 8 * n_1m / 32);
  EXPECT_EQ(one_load_per_thread(n_1m, 4, 16).global_ld_sectors, 16 * n_1m / 32);
  // The stride-32 gather measured on the H100: 32,768 requests, 1,048,576 sectors.
  EXPECT_EQ(one_load_per_thread(n_1m, 4, 4 * 32).global_ld_sectors, 1048576u);
}

TEST(coalescing_model, misaligned_by_one_float_needs_5_sectors_per_request) {
  const auto c = one_load_per_thread(n_1m, 4, 4, 4);
  EXPECT_EQ(c.global_ld_requests, n_1m / 32);
  EXPECT_EQ(c.global_ld_sectors, 5 * n_1m / 32);  // 163,840 measured
  EXPECT_DOUBLE_EQ(ld_bytes_per_sector(c), 25.6);
  for (std::uint64_t k = 1; k < 8; ++k) {
    EXPECT_EQ(one_load_per_thread(n_1m, 4, 4, 4 * k).global_ld_sectors, 5 * n_1m / 32) << k;
  }
}

TEST(coalescing_model, offset_by_a_multiple_of_8_floats_needs_4_sectors_per_request) {
  for (std::uint64_t k : {8, 16, 64}) {
    EXPECT_EQ(one_load_per_thread(n_1m, 4, 4, 4 * k).global_ld_sectors, n_1m / 8) << k;
  }
}

TEST(coalescing_model, float2_needs_8_sectors_per_request) {
  const auto c = one_load_per_thread(n_1m / 2, 8, 8);
  EXPECT_EQ(c.global_ld_requests, n_1m / 64);  // 16,384
  EXPECT_EQ(c.global_ld_sectors, 8 * c.global_ld_requests);
  EXPECT_EQ(c.global_ld_sectors, n_1m / 8);
}

TEST(coalescing_model, float4_needs_16_sectors_per_request_and_a_quarter_of_the_requests) {
  const auto c = one_load_per_thread(n_1m / 4, 16, 16);
  EXPECT_EQ(c.global_ld_requests, n_1m / 128);  // 8,192 measured
  EXPECT_EQ(c.global_ld_sectors, 16 * c.global_ld_requests);
  EXPECT_EQ(c.global_ld_sectors, n_1m / 8);
}

TEST(coalescing_model, half_warp_active_needs_2_sectors) {
  const auto a = model::make_warp_access(
      model::memory_space::global, model::access_kind::load, 4,
      [](unsigned lane) { return model::element_address(in_base, lane, 4, 16); });
  const auto c = model::count_warp_access(a);
  EXPECT_EQ(c.global_ld_requests, 1u);
  EXPECT_EQ(c.global_ld_sectors, 2u);
  EXPECT_EQ(c.global_ld_bytes, 64u);
}

TEST(coalescing_model, all_lanes_on_one_address_need_1_sector) {
  const auto a = model::make_warp_access(model::memory_space::global, model::access_kind::load, 4,
                                         [](unsigned) { return in_base + 100; });
  const auto c = model::count_warp_access(a);
  EXPECT_EQ(c.global_ld_requests, 1u);
  EXPECT_EQ(c.global_ld_sectors, 1u);
  EXPECT_DOUBLE_EQ(ld_bytes_per_sector(c), 128.0);
}

TEST(coalescing_model, char_per_thread_needs_1_sector_per_request) {
  const auto c = one_load_per_thread(n_1m, 1, 1);
  EXPECT_EQ(c.global_ld_requests, n_1m / 32);
  EXPECT_EQ(c.global_ld_sectors, c.global_ld_requests);
  EXPECT_DOUBLE_EQ(ld_bytes_per_sector(c), 32.0);
}

TEST(coalescing_model, uchar4_per_thread_needs_4_sectors_per_request) {
  const auto c = one_load_per_thread(n_1m / 4, 4, 4);
  EXPECT_EQ(c.global_ld_requests, n_1m / 128);
  EXPECT_EQ(c.global_ld_sectors, 4 * c.global_ld_requests);
}

TEST(coalescing_model, access_straddling_a_sector_boundary_touches_both_sectors) {
  auto a = model::warp_access::make(model::memory_space::global, model::access_kind::load, 4);
  a.address[0] = in_base + 30;  // bytes 30..33: sectors 0 and 1
  EXPECT_EQ(model::count_warp_access(a).global_ld_sectors, 2u);
}

TEST(coalescing_model, warp_without_an_active_lane_counts_nothing) {
  const auto a =
      model::warp_access::make(model::memory_space::global, model::access_kind::store, 4);
  EXPECT_EQ(model::count_warp_access(a), model::access_counts{});
}

TEST(coalescing_model, stores_are_counted_apart_from_loads) {
  const auto st = model::make_warp_access(model::memory_space::global, model::access_kind::store, 4,
                                          [](unsigned lane) { return out_base + 4 * lane; });
  const auto c = model::count_warp_access(st);
  EXPECT_EQ(c.global_st_requests, 1u);
  EXPECT_EQ(c.global_st_sectors, 4u);
  EXPECT_EQ(c.global_st_bytes, 128u);
  EXPECT_EQ(c.global_ld_requests, 0u);
  EXPECT_EQ(c.global_ld_sectors, 0u);
}

TEST(coalescing_model, record_times_equals_recording_repeatedly) {
  const auto a = model::make_warp_access(model::memory_space::global, model::access_kind::load, 4,
                                         [](unsigned lane) { return in_base + 12 * lane; });
  model::access_model once;
  for (int i = 0; i < 1000; ++i) once.record(a);
  model::access_model times;
  times.record(a, 1000);
  EXPECT_EQ(once.counts(), times.counts());
  EXPECT_EQ(times.counts().global_ld_sectors, 12000u);
}

TEST(coalescing_model, unsupported_width_is_rejected) {
  EXPECT_THROW(model::warp_access::make(model::memory_space::global, model::access_kind::load, 12),
               std::invalid_argument);
  auto a = model::warp_access::make(model::memory_space::global, model::access_kind::load, 4);
  a.width_bytes = 3;
  EXPECT_THROW(model::count_warp_access(a), std::invalid_argument);
}

namespace {

// Local memory coalesces like global memory but lands in its own counters: a warp storing word
// w of its lanes' arrays (interleaved: lane l at (32 w + l) * 4) is one request of 4 sectors,
// and nothing reaches the global fields.
TEST(local_space, counts_requests_and_sectors_in_the_local_fields_only) {
  model::warp_access st =
      model::warp_access::make(model::memory_space::local, model::access_kind::store, 4);
  model::warp_access ld =
      model::warp_access::make(model::memory_space::local, model::access_kind::load, 4);
  for (unsigned lane = 0; lane < 32; ++lane) {
    st.address[lane] = (3 * 32 + lane) * 4;
    ld.address[lane] = (std::uint64_t{lane % 8} * 32 + lane) * 4;  // 8 different words
  }
  model::access_model m;
  m.record(st);
  m.record(ld, 2);
  const model::access_counts& c = m.counts();
  EXPECT_EQ(c.local_st_requests, 1u);
  EXPECT_EQ(c.local_st_sectors, 4u);
  EXPECT_EQ(c.local_ld_requests, 2u);
  // Lane l reads word l mod 8 at byte 4 (32 (l mod 8) + l): each lane a sector of its own.
  EXPECT_EQ(c.local_ld_sectors, 2u * 32);
  EXPECT_EQ(c.global_ld_requests + c.global_st_requests + c.global_ld_sectors, 0u);
  EXPECT_EQ(c.local_st_sectors, 4.0);
  EXPECT_EQ(c.local_ld_requests, 2.0);
}

}  // namespace
