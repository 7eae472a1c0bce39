// Lab 02's access model (memory_model.hpp).
#include "memory_model.hpp"

#include "memory/memory_index.cuh"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace cudalab::labs::memory_model {
namespace {

using model::access_kind;
using model::memory_space;
using model::warp_access;
using model::warp_size;
namespace mem = cudalab::memory;

constexpr unsigned x_buffer = 0, out_buffer = 1, coeffs_buffer = 2, local_buffer = 3;

// One warp of a launch: its first element, its active lanes (consecutive elements, lanes
// 0..active-1; 0 for a warp wholly past n) and whether it is its block's first warp.
struct warp_class {
  std::size_t first = 0;
  unsigned active = 0;
  bool block_leader = false;
};

// The element accesses every kernel makes: x[i] loaded, out[i] stored, 4 bytes a lane.
void element_accesses(const warp_class& w, model::access_model& m) {
  for (const auto& [kind, buffer] :
       {std::pair{access_kind::load, x_buffer}, std::pair{access_kind::store, out_buffer}}) {
    warp_access a = warp_access::make(memory_space::global, kind, 4);
    for (unsigned lane = 0; lane < w.active; ++lane)
      a.address[lane] = buffer_base(buffer) + (w.first + lane) * 4;
    m.record(a);
  }
}

// A load every active lane makes of one address (a coefficient in global memory).
void uniform_global_load(unsigned active, std::uint64_t address, model::access_model& m) {
  warp_access a = warp_access::make(memory_space::global, access_kind::load, 4);
  for (unsigned lane = 0; lane < active; ++lane) a.address[lane] = address;
  m.record(a);
}

// The local accesses of local_spill (as emitted: 16 STL of word spill_slot(k, step), then the
// sum's loads merged into 4 LDL.128 of words 0-3, 4-7, 8-11, 12-15). Each warp has a frame of
// its own, interleaved a word at a time, so a lane's four words of one LDL.128 lie in four
// different 128-byte rows: the H100 counts such a load as four requests, one a word, each with
// the sectors of the 4-byte interleave (measured: 16 load requests a warp, 16 sectors for a
// warp of 3 lanes). The model records each LDL.128 as those four word accesses.
void local_accesses(unsigned active, unsigned step, model::access_model& m) {
  const std::uint64_t frame = buffer_base(local_buffer);
  for (unsigned k = 0; k < mem::spill_words; ++k) {
    warp_access a = warp_access::make(memory_space::local, access_kind::store, 4);
    for (unsigned lane = 0; lane < active; ++lane)
      a.address[lane] = mem::local_word_address(frame, mem::spill_slot(k, step), lane);
    m.record(a);
  }
  for (unsigned word = 0; word < mem::spill_words; ++word) {  // 4 LDL.128, 4 words each
    warp_access a = warp_access::make(memory_space::local, access_kind::load, 4);
    for (unsigned lane = 0; lane < active; ++lane)
      a.address[lane] = mem::local_word_address(frame, word, lane);
    m.record(a);
  }
}

model::access_counts one_warp(kernel k, const warp_class& w, unsigned step) {
  model::access_model m;
  if (k == kernel::coeffs_shared && w.block_leader) {
    // Lanes 0..15 of the block's first warp copy the coefficients (before the guard on n).
    warp_access ld = warp_access::make(memory_space::global, access_kind::load, 4);
    warp_access st = warp_access::make(memory_space::shared, access_kind::store, 4);
    for (unsigned lane = 0; lane < mem::poly_terms; ++lane) {
      ld.address[lane] = buffer_base(coeffs_buffer) + mem::coefficient_index(0, lane) * 4;
      st.address[lane] = std::uint64_t{lane} * 4;
    }
    m.record(ld);
    m.record(st);
  }
  if (w.active == 0) return m.counts();
  element_accesses(w, m);
  switch (k) {
    case kernel::coeffs_global:
      for (unsigned c = 0; c < mem::poly_terms; ++c)
        uniform_global_load(w.active, buffer_base(coeffs_buffer) + mem::coefficient_index(0, c) * 4,
                            m);
      break;
    case kernel::coeffs_shared:
      for (unsigned c = 0; c < mem::poly_terms; c += 4) {
        warp_access a = warp_access::make(memory_space::shared, access_kind::load, 16);
        for (unsigned lane = 0; lane < w.active; ++lane) a.address[lane] = std::uint64_t{c} * 4;
        m.record(a);
      }
      break;
    case kernel::local_spill:
      local_accesses(w.active, step, m);
      break;
    case kernel::coeffs_constant:
    case kernel::constant_divergent:
    case kernel::registers:
      break;
  }
  return m.counts();
}

// Calls f(warp_class, how_many) for the warps of the launch, grouped into classes (or one by
// one for every_warp). Every block but the last is full, and its warps differ only in the first
// element's residue modulo 32 (the block's first element plus multiples of 32).
template <typename F>
void for_each_warp_class(std::size_t n, unsigned block, walk how, F&& f) {
  const std::size_t blocks = (n + block - 1) / block;
  const unsigned warps_a_block = (block + warp_size - 1) / warp_size;
  std::map<std::tuple<unsigned, unsigned, bool>, std::uint64_t> classes;
  const auto visit_block = [&](std::size_t b, std::uint64_t times) {
    for (unsigned wi = 0; wi < warps_a_block; ++wi) {
      const std::size_t first = mem::element_index(b, block, wi * warp_size);
      const unsigned lanes_in_block = std::min<unsigned>(warp_size, block - wi * warp_size);
      const unsigned active =
          first >= n ? 0u : static_cast<unsigned>(std::min<std::size_t>(lanes_in_block, n - first));
      if (how == walk::every_warp)
        f(warp_class{first, active, wi == 0}, times);
      else
        classes[{static_cast<unsigned>(first % warp_size), active, wi == 0}] += times;
    }
  };
  if (how == walk::every_warp) {
    for (std::size_t b = 0; b < blocks; ++b) visit_block(b, 1);
    return;
  }
  // Full blocks by the residue of their first element: blocks r and r + 32 / gcd look alike.
  std::array<std::pair<std::size_t, std::uint64_t>, warp_size> full{};  // (a block, count)
  for (std::size_t b = 0; b + 1 < blocks; ++b) {
    auto& entry = full[(b * block) % warp_size];
    if (entry.second++ == 0) entry.first = b;
  }
  for (const auto& [a_block, count] : full)
    if (count > 0) visit_block(a_block, count);
  visit_block(blocks - 1, 1);
  for (const auto& [key, count] : classes)
    f(warp_class{std::get<0>(key), std::get<1>(key), std::get<2>(key)}, count);
}

}  // namespace

model::access_counts predict(kernel k, std::size_t n, unsigned block, unsigned step, walk how) {
  model::access_counts total;
  for_each_warp_class(n, block, how, [&](const warp_class& w, std::uint64_t count) {
    total += one_warp(k, w, step).scaled(count);
  });
  // The constant cache is held to the model too: `constant_divergent_inst`, `constant_replays`.
  const constant_counts c = predict_constant(k, n, block);
  total.constant_cache = model::constant_cache_counts{c.divergent_instructions, c.replays};
  return total;
}

unsigned distinct_constant_addresses(std::size_t first, unsigned active) {
  std::set<unsigned> sets;
  for (unsigned lane = 0; lane < active; ++lane)
    sets.insert(mem::coefficient_set(first + lane, true));
  return static_cast<unsigned>(sets.size());
}

constant_counts predict_constant(kernel k, std::size_t n, unsigned block) {
  constant_counts c;
  if (k != kernel::constant_divergent) return c;
  // 8 LDC.64 a warp with an active lane: coefficients 2p and 2p + 1 of the lane's set in one.
  constexpr std::uint64_t ldc_a_warp = memory::poly_terms / 2;
  for_each_warp_class(n, block, walk::warp_classes, [&](const warp_class& w, std::uint64_t count) {
    if (w.active == 0) return;
    const unsigned distinct = distinct_constant_addresses(w.first, w.active);
    c.ldc_instructions += ldc_a_warp * count;
    if (distinct > 1) {
      c.divergent_instructions += ldc_a_warp * count;
      c.replays += ldc_a_warp * (distinct - 1) * count;
    }
  });
  return c;
}

}  // namespace cudalab::labs::memory_model
