// The access model against a deliberately naive reference written here from the rules alone:
// every byte a lane touches goes into a std::set of sectors (global) or into a per-bank
// std::set of words per phase (shared), with phases of 128 bytes (32, 16 or 8 lanes). Random
// warps mix alignment, strides, broadcast, small address windows (many collisions) and random
// active-lane masks; the fast model must agree on every one of them.
#include "cudalab/model/access_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
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
  const unsigned lanes_per_phase = std::min(32u, 128u / a.width_bytes);
  std::uint64_t wavefronts = 0, ideal = 0;
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
      case 0: addr = base + lane * width; break;                       // contiguous
      case 1: addr = base + lane * stride; break;                      // strided
      case 2: addr = base + (rng() % window) * width; break;           // random, aligned
      case 3: addr = base + rng() % (window * 4); break;               // random, unaligned
      default: addr = base + (lane / (1 + rng() % 8)) * stride; break;  // partial broadcast
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
