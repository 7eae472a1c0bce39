// The access model against a deliberately naive reference written here from the rules alone:
// every byte a lane touches goes into a std::set of sectors (global) or into a per-bank
// std::set of words per phase (shared), with phases of 128 bytes (32, 16 or 8 lanes), and
// 16-byte loads by the half-warp rule measured on the H100 (access_model.cpp). Random
// warps mix alignment, strides, broadcast, small address windows (many collisions) and random
// active-lane masks; the fast model must agree on every one of them.
//
// Then the shortcut of block_classes.hpp against walking every block: random guarded kernels
// (element sizes 1 to 16 bytes, strides, offsets, shared tiles, odd blocks and sizes) must
// count the same either way.
#include "cudalab/model/access_model.hpp"
#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>

namespace model = cudalab::model;

namespace {

model::access_counts reference_counts(const model::warp_access& a) {
  model::access_counts c;
  const bool load = a.kind == model::access_kind::load;
  if (a.space == model::memory_space::global) {
    std::set<std::uint64_t> sectors;
    std::uint64_t active = 0;
    for (std::uint64_t addr : a.address) {
      if (addr == model::inactive_lane) continue;
      ++active;
      for (std::uint64_t b = addr; b < addr + a.width_bytes; ++b) sectors.insert(b / 32);
    }
    if (active == 0) return c;
    (load ? c.global_ld_requests : c.global_st_requests) = 1;
    (load ? c.global_ld_sectors : c.global_st_sectors) = sectors.size();
    (load ? c.global_ld_bytes : c.global_st_bytes) = active * a.width_bytes;
    return c;
  }
  std::uint64_t wavefronts = 0, ideal = 0;
  if (a.width_bytes == 16 && load) {
    // Each half-warp: one wavefront when every active lane reads one address; else each
    // quarter's distinct words are served on their own, so per bank the quarters' counts add.
    for (unsigned half = 0; half < 32; half += 16) {
      std::set<std::uint64_t> addresses;
      std::map<std::uint64_t, std::size_t> words_in_bank;
      std::uint64_t quarters = 0;
      for (unsigned q = half; q < half + 16; q += 8) {
        std::set<std::uint64_t> words;
        for (unsigned lane = q; lane < q + 8; ++lane) {
          const std::uint64_t addr = a.address[lane];
          if (addr == model::inactive_lane) continue;
          addresses.insert(addr);
          for (std::uint64_t b = addr; b < addr + 16; ++b) words.insert(b / 4);
        }
        if (!words.empty()) ++quarters;
        for (std::uint64_t w : words) ++words_in_bank[w % 32];
      }
      if (addresses.empty()) continue;
      std::uint64_t most = 1;
      if (addresses.size() > 1)
        for (const auto& [bank, count] : words_in_bank) most = std::max<std::uint64_t>(most, count);
      wavefronts += most;
      ideal += addresses.size() > 1 ? std::min(quarters, most) : 1;
    }
    if (ideal == 0) return c;
    c.shared_ld_instructions = 1;
    c.shared_ld_wavefronts = wavefronts;
    c.shared_ld_conflicts = wavefronts - ideal;
    return c;
  }
  const unsigned lanes_per_phase = std::min(32u, 128u / a.width_bytes);
  for (unsigned first = 0; first < 32; first += lanes_per_phase) {
    std::map<std::uint64_t, std::set<std::uint64_t>> words_of_bank;
    for (unsigned lane = first; lane < first + lanes_per_phase; ++lane) {
      const std::uint64_t addr = a.address[lane];
      if (addr == model::inactive_lane) continue;
      for (std::uint64_t b = addr; b < addr + a.width_bytes; ++b) {
        words_of_bank[(b / 4) % 32].insert(b / 4);
      }
    }
    if (words_of_bank.empty()) continue;
    ++ideal;
    std::size_t most = 0;
    for (const auto& [bank, words] : words_of_bank) most = std::max(most, words.size());
    wavefronts += most;
  }
  if (ideal == 0) return c;
  (load ? c.shared_ld_instructions : c.shared_st_instructions) = 1;
  (load ? c.shared_ld_wavefronts : c.shared_st_wavefronts) = wavefronts;
  (load ? c.shared_ld_conflicts : c.shared_st_conflicts) = wavefronts - ideal;
  return c;
}

model::warp_access random_warp(std::mt19937_64& rng) {
  const unsigned widths[] = {1, 2, 4, 8, 16};
  const unsigned width = widths[rng() % 5];
  const auto space = rng() % 2 ? model::memory_space::global : model::memory_space::shared;
  const auto kind = rng() % 2 ? model::access_kind::load : model::access_kind::store;
  auto a = model::warp_access::make(space, kind, width);
  const std::uint64_t base = (rng() % 4096) * 256 + (rng() % 4 == 0 ? rng() % 64 : 0);
  const unsigned pattern = rng() % 5;
  const std::uint64_t stride = width * (1 + rng() % 40);
  const std::uint64_t window = 1 + rng() % 512;
  const std::uint32_t mask = rng() % 3 == 0 ? static_cast<std::uint32_t>(rng()) : ~0u;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    std::uint64_t addr = 0;
    switch (pattern) {
      case 0:
        addr = base + lane * width;
        break;  // contiguous
      case 1:
        addr = base + lane * stride;
        break;  // strided
      case 2:
        addr = base + (rng() % window) * width;
        break;  // random, aligned
      case 3:
        addr = base + rng() % (window * 4);
        break;  // random, unaligned
      default:
        addr = base + (lane / (1 + rng() % 8)) * stride;
        break;  // partial broadcast
    }
    a.address[lane] = addr;
  }
  return a;
}

}  // namespace

TEST(brute_force_model, random_warps_match_the_set_based_reference) {
  std::mt19937_64 rng(20261122);
  model::access_model fast;
  model::access_counts slow_total;
  for (int i = 0; i < 50000; ++i) {
    const auto a = random_warp(rng);
    const auto expected = reference_counts(a);
    const auto got = model::count_warp_access(a);
    ASSERT_EQ(got, expected) << "warp " << i << " width " << a.width_bytes << " space "
                             << (a.space == model::memory_space::global ? "global" : "shared");
    fast.record(a);
    slow_total += expected;
  }
  EXPECT_EQ(fast.counts(), slow_total);
  EXPECT_GT(slow_total.shared_ld_conflicts + slow_total.shared_st_conflicts, 0u);
  EXPECT_GT(slow_total.global_ld_sectors, slow_total.global_ld_requests);
}

TEST(brute_force_model, descending_lane_order_matches_the_reference) {
  for (unsigned width : {1u, 2u, 4u, 8u, 16u}) {
    for (auto space : {model::memory_space::global, model::memory_space::shared}) {
      auto a = model::warp_access::make(space, model::access_kind::load, width);
      for (unsigned lane = 0; lane < 32; ++lane) a.address[lane] = 4096 + (31 - lane) * 3 * width;
      EXPECT_EQ(model::count_warp_access(a), reference_counts(a)) << width;
    }
  }
}

namespace {

// A guarded 1D kernel, chosen at random: each thread i < n loads a[i * stride + offset] (elements
// of `width` bytes) and stores it to its own word of a shared tile, `tile_stride` words apart.
struct random_kernel {
  std::uint64_t n = 0;
  unsigned block = 0, width = 4, stride = 1, offset = 0, tile_stride = 1;

  model::access_counts block_counts(std::uint64_t b) const {
    model::access_model m;
    model::for_each_warp_of_block(b, block, [&](const model::warp_threads& w) {
      m.record(model::global_load(w, width, [&](std::uint64_t i) {
        return model::element_address(std::uint64_t{1} << 32, i * stride + offset, width,
                                      n * stride + offset);
      }));
      m.record(model::shared_store(w, 4, [&](unsigned t) -> std::optional<std::uint64_t> {
        if (w.block * block + t >= n) return std::nullopt;
        return std::uint64_t{t} * tile_stride * 4;
      }));
    });
    return m.counts();
  }
  model::grid_axis axis() const {
    return model::grid_axis::guarded(n, block, {std::uint64_t{block} * stride * width});
  }
};

}  // namespace

TEST(block_classes, repeat_period_is_the_blocks_until_a_multiple_of_128_bytes) {
  EXPECT_EQ(model::repeat_period({0}), 1u);
  EXPECT_EQ(model::repeat_period({128}), 1u);
  EXPECT_EQ(model::repeat_period({256 * 12}), 1u);
  EXPECT_EQ(model::repeat_period({4}), 32u);
  EXPECT_EQ(model::repeat_period({12}), 32u);
  EXPECT_EQ(model::repeat_period({1}), 128u);
  EXPECT_EQ(model::repeat_period({96}), 4u);
  EXPECT_EQ(model::repeat_period({64, 4, 128}), 32u);
  for (std::uint64_t bytes = 0; bytes < 1000; ++bytes) {
    const std::uint64_t p = model::repeat_period({bytes});
    EXPECT_EQ(bytes * p % model::repeat_bytes, 0u) << bytes;
    for (std::uint64_t q = 1; q < p; ++q) EXPECT_NE(bytes * q % model::repeat_bytes, 0u) << bytes;
  }
}

TEST(block_classes, representatives_stand_for_every_block_but_the_idle_ones) {
  for (std::uint64_t whole : {0u, 1u, 5u, 31u, 32u, 33u, 1000u})
    for (std::uint64_t edges : {0u, 1u, 3u})
      for (std::uint64_t period : {1u, 4u, 32u, 128u}) {
        model::grid_axis a;
        a.whole = whole;
        a.edge_end = whole + edges;
        a.blocks = a.edge_end + 7;
        a.period = period;
        std::uint64_t covered = 0;
        for (const auto& [block, times] : a.representatives()) {
          EXPECT_LT(block, a.edge_end);
          covered += times;
        }
        EXPECT_EQ(covered, a.edge_end);
        EXPECT_EQ(model::blocks_walked(a), a.representatives().size());
      }
  model::grid_axis bad;
  bad.whole = 3;
  bad.edge_end = 2;
  EXPECT_THROW(model::blocks_walked(bad), std::invalid_argument);
}

TEST(block_classes, random_guarded_kernels_count_the_same_as_walking_every_block) {
  std::mt19937_64 rng(20261123);
  const unsigned widths[] = {1, 2, 4, 8, 16};
  for (int i = 0; i < 400; ++i) {
    random_kernel k;
    k.block = 1 + static_cast<unsigned>(rng() % (rng() % 2 ? 96 : 1024));
    k.n = 1 + rng() % (i % 4 == 0 ? 100 : 40'000);
    k.width = widths[rng() % 5];
    k.stride = 1 + static_cast<unsigned>(rng() % 9);
    k.offset = static_cast<unsigned>(rng() % 40);
    k.tile_stride = 1 + static_cast<unsigned>(rng() % 4);
    const auto fn = [&](std::uint64_t b) { return k.block_counts(b); };
    ASSERT_EQ(model::sum_block_classes(k.axis(), fn), model::sum_every_block(k.axis(), fn))
        << "n " << k.n << " block " << k.block << " width " << k.width << " stride " << k.stride
        << " offset " << k.offset;
  }
}

TEST(block_classes, a_wrong_period_is_caught_by_the_reference) {
  // 4-byte elements in blocks of 33 threads move 132 bytes a block: 32 blocks repeat, 1 does not.
  random_kernel k;
  k.n = 33 * 40;
  k.block = 33;
  model::grid_axis wrong = k.axis();
  ASSERT_EQ(wrong.period, 32u);
  wrong.period = 1;
  const auto fn = [&](std::uint64_t b) { return k.block_counts(b); };
  EXPECT_EQ(model::sum_block_classes(k.axis(), fn), model::sum_every_block(k.axis(), fn));
  EXPECT_NE(model::sum_block_classes(wrong, fn), model::sum_every_block(k.axis(), fn));
}

TEST(block_classes, scaled_counts_equal_repeated_sums) {
  std::mt19937_64 rng(7);
  model::access_counts one;
  for (int i = 0; i < 20; ++i) one += model::count_warp_access(random_warp(rng));
  model::access_counts sum;
  for (int i = 0; i < 13; ++i) sum += one;
  EXPECT_EQ(one.scaled(13), sum);
  EXPECT_EQ(one.scaled(0), model::access_counts{});
}

TEST(block_classes, every_warp_built_is_counted_on_its_thread) {
  const std::uint64_t before = model::warp_accesses_built_on_this_thread();
  model::for_each_warp(model::launch_threads(1000, 96), 96, [&](const model::warp_threads& w) {
    (void)model::global_load(w, 4,
                             [](std::uint64_t i) { return std::optional<std::uint64_t>(4 * i); });
  });
  EXPECT_EQ(model::warp_accesses_built_on_this_thread() - before,
            11u * 3u);  // 11 blocks of 3 warps
}
