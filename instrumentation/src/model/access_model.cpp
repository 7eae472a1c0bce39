// The access model's arithmetic: how one warp instruction becomes requests, sectors, wavefronts
// and conflicts (docs/access_model.md).
//
// Labs feed this millions of warp instructions, so it allocates nothing: each instruction is
// folded through fixed arrays of at most 64 values. Lanes usually touch addresses in lane
// order (coalesced, strided, AoS, column access), so distinct values are counted on the fly
// while they arrive in order; only an instruction whose lanes go out of order is sorted.
//
// Shared memory, the rule this file implements:
//   - 32 banks of 4 bytes; the word of byte address a is a/4, its bank (a/4) mod 32.
//   - An access of w bytes at a touches the words a/4 .. (a+w-1)/4.
//   - The warp is served in phases: one phase of 32 lanes for 1-, 2- and 4-byte accesses, two
//     half-warp phases (lanes 0-15, 16-31) for 8-byte accesses, four quarter-warp phases for
//     16-byte accesses (each phase then moves at most 128 bytes, one per bank and cycle).
//   - A phase costs as many wavefronts as the most distinct words any one bank must serve
//     (lanes reading the same word share it: broadcast); a phase without an active lane costs 0.
//   - Ideal wavefronts = phases with an active lane; conflicts = wavefronts - ideal.
//   So a 4-byte access costs 1 wavefront when conflict-free, an 8-byte one 2, a 16-byte one 4.
//   - 16-byte loads (LDS.128) follow the rule measured on the H100 (lab 08, docs/counters.md):
//     the warp is served by half-warps. A half whose active lanes all read one address is one
//     broadcast wavefront. Otherwise each bank serves the distinct words of each quarter-warp of
//     the half on its own: a word both quarters read costs twice. The half costs the busiest
//     bank's count; ideal = its quarters with an active lane, or that count when lower.
//     16-byte stores keep the quarter-warp phases above.
#include "cudalab/model/access_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cudalab::model {
namespace {

thread_local std::uint64_t built_on_this_thread = 0;

// A lane touches at most 2 sectors (w <= 16 < 32) and at most ceil(w/4) + 1 words (one more when
// misaligned); 32 lanes x 2 sectors, and a phase of min(32, 128/w) lanes, fit in 64 slots.
constexpr int max_touched = 64;

using touched_array = std::array<std::uint64_t, max_touched>;

// Sorts v[0 .. n) and drops duplicates; returns the distinct count. Only for instructions whose
// lanes touched memory out of order.
int sort_unique(touched_array& v, int n) {
  auto* first = v.data();
  std::sort(first, first + n);
  return static_cast<int>(std::unique(first, first + n) - first);
}

int first_active_lane(const warp_access& access, int begin, int end) {
  while (begin < end && access.address[static_cast<std::size_t>(begin)] == inactive_lane) ++begin;
  return begin;
}

void check_width(unsigned width) {
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
    throw std::invalid_argument("access model: width_bytes must be 1, 2, 4, 8 or 16, not " +
                                std::to_string(width));
  }
}

// The common case in one branch-free pass: every lane active, no access straddling a sector,
// sectors in lane order. Returns false (and counts nothing) when the case does not apply.
bool count_global_fast(const warp_access& access, std::uint64_t& n_sectors) {
  const std::uint64_t last_byte = access.width_bytes - 1;
  std::uint64_t prev = access.address[0] / sector_bytes;
  std::uint64_t distinct = 1;
  bool simple = true;
  for (const std::uint64_t a : access.address) {
    const std::uint64_t sector = a / sector_bytes;
    const bool straddles = ((a ^ (a + last_byte)) / sector_bytes) != 0;
    simple &= (a != inactive_lane) & !straddles & (prev <= sector);
    distinct += sector != prev;
    prev = sector;
  }
  n_sectors = distinct;
  return simple;
}

void add_global(access_kind kind, std::uint64_t n_sectors, std::uint64_t bytes,
                access_counts& counts) {
  if (kind == access_kind::load) {
    ++counts.global_ld_requests;
    counts.global_ld_sectors += n_sectors;
    counts.global_ld_bytes += bytes;
  } else {
    ++counts.global_st_requests;
    counts.global_st_sectors += n_sectors;
    counts.global_st_bytes += bytes;
  }
}

// Local memory coalesces like global memory; only the counters it lands in differ.
void add_local(access_kind kind, std::uint64_t n_sectors, access_counts& counts) {
  if (kind == access_kind::load) {
    ++counts.local_ld_requests;
    counts.local_ld_sectors += n_sectors;
  } else {
    ++counts.local_st_requests;
    counts.local_st_sectors += n_sectors;
  }
}

void add_coalesced(const warp_access& access, std::uint64_t n_sectors, std::uint64_t bytes,
                   access_counts& counts) {
  if (access.space == memory_space::local)
    add_local(access.kind, n_sectors, counts);
  else
    add_global(access.kind, n_sectors, bytes, counts);
}

void count_global(const warp_access& access, access_counts& counts) {
  std::uint64_t fast_sectors = 0;
  if (count_global_fast(access, fast_sectors)) {
    add_coalesced(access, fast_sectors, std::uint64_t{warp_size} * access.width_bytes, counts);
    return;
  }
  int lane = first_active_lane(access, 0, warp_size);
  if (lane == warp_size) return;
  touched_array sectors;
  int size = 0;
  int distinct = 1;
  bool sorted = true;
  std::uint64_t prev = access.address[static_cast<std::size_t>(lane)] / sector_bytes;
  std::uint64_t active = 0;
  const std::uint64_t last_byte = access.width_bytes - 1;
  for (; lane < warp_size; ++lane) {
    const std::uint64_t a = access.address[static_cast<std::size_t>(lane)];
    if (a == inactive_lane) continue;
    ++active;
    const std::uint64_t first = a / sector_bytes;
    const std::uint64_t last = (a + last_byte) / sector_bytes;
    sorted &= prev <= first;
    distinct += first != prev;
    sectors[static_cast<std::size_t>(size++)] = first;
    prev = first;
    if (last != first) {
      ++distinct;
      sectors[static_cast<std::size_t>(size++)] = last;
      prev = last;
    }
  }
  if (!sorted) distinct = sort_unique(sectors, size);
  add_coalesced(access, static_cast<std::uint64_t>(distinct), active * access.width_bytes, counts);
}

// The common shared case in one branch-free pass: a 1-, 2- or 4-byte access (one phase), every
// lane active, each lane inside one word, words in lane order. Returns false when it does not
// apply.
bool single_phase_fast(const warp_access& access, std::uint64_t& wavefronts) {
  const std::uint64_t last_byte = access.width_bytes - 1;
  std::array<std::uint8_t, shared_banks> per_bank{};
  std::uint64_t prev = access.address[0] / bank_bytes;
  per_bank[prev % shared_banks] = 1;
  bool simple = true;
  for (const std::uint64_t a : access.address) {
    const std::uint64_t word = a / bank_bytes;
    const bool straddles = ((a ^ (a + last_byte)) / bank_bytes) != 0;
    simple &= (a != inactive_lane) & !straddles & (prev <= word);
    per_bank[word % shared_banks] += word != prev;
    prev = word;
  }
  std::uint8_t most = 0;
  for (const std::uint8_t n : per_bank) most = std::max(most, n);
  wavefronts = most;
  return simple;
}

// The wavefronts of one phase (lanes [begin, end)); 0 when no lane of it is active. In order,
// each new word is counted against its bank as it arrives; out of order, the words are sorted
// and deduplicated first.
std::uint64_t phase_wavefronts(const warp_access& access, int begin, int end) {
  int lane = first_active_lane(access, begin, end);
  if (lane == end) return 0;
  touched_array words;
  int size = 0;
  bool sorted = true;
  std::array<std::uint8_t, shared_banks> per_bank{};
  std::uint8_t most = 0;
  std::uint64_t prev = ~std::uint64_t{0};
  const std::uint64_t last_byte = access.width_bytes - 1;
  for (; lane < end; ++lane) {
    const std::uint64_t a = access.address[static_cast<std::size_t>(lane)];
    if (a == inactive_lane) continue;
    const std::uint64_t last = (a + last_byte) / bank_bytes;
    for (std::uint64_t w = a / bank_bytes; w <= last; ++w) {
      words[static_cast<std::size_t>(size++)] = w;
      if (w == prev) continue;
      sorted &= prev == ~std::uint64_t{0} || prev < w;
      most = std::max(most, ++per_bank[w % shared_banks]);
      prev = w;
    }
  }
  if (sorted) return most;
  const int distinct = sort_unique(words, size);
  per_bank.fill(0);
  most = 0;
  for (int i = 0; i < distinct; ++i) {
    most = std::max(most, ++per_bank[words[static_cast<std::size_t>(i)] % shared_banks]);
  }
  return most;
}

// A 16-byte load's half-warp of lanes [begin, begin + 16): adds its wavefronts and ideal
// wavefronts (the rule at the top of this file).
void wide_load_half(const warp_access& access, int begin, std::uint64_t& wavefronts,
                    std::uint64_t& ideal) {
  constexpr int half = warp_size / 2;
  constexpr int quarter = warp_size / 4;
  const int first = first_active_lane(access, begin, begin + half);
  if (first == begin + half) return;
  const std::uint64_t address = access.address[static_cast<std::size_t>(first)];
  bool uniform = true;
  for (int lane = first; lane < begin + half && uniform; ++lane) {
    const std::uint64_t a = access.address[static_cast<std::size_t>(lane)];
    uniform = a == inactive_lane || a == address;
  }
  if (uniform) {
    wavefronts += 1;
    ideal += 1;
    return;
  }
  std::array<std::uint8_t, shared_banks> per_bank{};
  std::uint64_t quarters = 0;
  for (int q = begin; q < begin + half; q += quarter) {
    if (first_active_lane(access, q, q + quarter) == q + quarter) continue;
    ++quarters;
    touched_array words;
    int size = 0;
    for (int lane = q; lane < q + quarter; ++lane) {
      const std::uint64_t a = access.address[static_cast<std::size_t>(lane)];
      if (a == inactive_lane) continue;
      for (std::uint64_t w = a / bank_bytes; w <= (a + access.width_bytes - 1) / bank_bytes; ++w)
        words[static_cast<std::size_t>(size++)] = w;
    }
    const int distinct = sort_unique(words, size);
    for (int i = 0; i < distinct; ++i)
      ++per_bank[words[static_cast<std::size_t>(i)] % shared_banks];
  }
  const std::uint64_t busiest = *std::max_element(per_bank.begin(), per_bank.end());
  wavefronts += busiest;
  ideal += std::min(quarters, busiest);
}

void count_shared(const warp_access& access, access_counts& counts) {
  const int phases = access.width_bytes <= 4 ? 1 : static_cast<int>(access.width_bytes) / 4;
  const int lanes_per_phase = warp_size / phases;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal = 0;
  if (phases == 1 && single_phase_fast(access, wavefronts)) {
    ideal = 1;
  } else if (access.width_bytes == 16 && access.kind == access_kind::load) {
    wide_load_half(access, 0, wavefronts, ideal);
    wide_load_half(access, warp_size / 2, wavefronts, ideal);
  } else {
    wavefronts = 0;
    for (int p = 0; p < phases; ++p) {
      const std::uint64_t w =
          phase_wavefronts(access, p * lanes_per_phase, (p + 1) * lanes_per_phase);
      wavefronts += w;
      ideal += w > 0 ? 1 : 0;
    }
  }
  if (ideal == 0) return;
  if (access.kind == access_kind::load) {
    ++counts.shared_ld_instructions;
    counts.shared_ld_wavefronts += wavefronts;
    counts.shared_ld_conflicts += wavefronts - ideal;
  } else {
    ++counts.shared_st_instructions;
    counts.shared_st_wavefronts += wavefronts;
    counts.shared_st_conflicts += wavefronts - ideal;
  }
}

}  // namespace

warp_access warp_access::make(memory_space space, access_kind kind, unsigned width_bytes) {
  check_width(width_bytes);
  ++built_on_this_thread;
  warp_access access;
  access.space = space;
  access.kind = kind;
  access.width_bytes = width_bytes;
  access.address.fill(inactive_lane);
  return access;
}

std::uint64_t warp_accesses_built_on_this_thread() noexcept { return built_on_this_thread; }

access_counts access_counts::scaled(std::uint64_t times) const {
  access_counts r;
  r.global_ld_requests = global_ld_requests * times;
  r.global_ld_sectors = global_ld_sectors * times;
  r.global_st_requests = global_st_requests * times;
  r.global_st_sectors = global_st_sectors * times;
  r.global_ld_bytes = global_ld_bytes * times;
  r.global_st_bytes = global_st_bytes * times;
  r.shared_ld_instructions = shared_ld_instructions * times;
  r.shared_st_instructions = shared_st_instructions * times;
  r.shared_ld_wavefronts = shared_ld_wavefronts * times;
  r.shared_st_wavefronts = shared_st_wavefronts * times;
  r.shared_ld_conflicts = shared_ld_conflicts * times;
  r.shared_st_conflicts = shared_st_conflicts * times;
  r.local_ld_requests = local_ld_requests * times;
  r.local_ld_sectors = local_ld_sectors * times;
  r.local_st_requests = local_st_requests * times;
  r.local_st_sectors = local_st_sectors * times;
  r.shared_ld_inst_exact = shared_ld_inst_exact;
  if (instructions) r.instructions = instructions->scaled(times);
  if (constant_cache)
    r.constant_cache = constant_cache_counts{constant_cache->divergent_instructions * times,
                                             constant_cache->replays * times};
  return r;
}

access_counts& access_counts::operator+=(const access_counts& other) {
  global_ld_requests += other.global_ld_requests;
  global_ld_sectors += other.global_ld_sectors;
  global_st_requests += other.global_st_requests;
  global_st_sectors += other.global_st_sectors;
  global_ld_bytes += other.global_ld_bytes;
  global_st_bytes += other.global_st_bytes;
  shared_ld_instructions += other.shared_ld_instructions;
  shared_st_instructions += other.shared_st_instructions;
  shared_ld_wavefronts += other.shared_ld_wavefronts;
  shared_st_wavefronts += other.shared_st_wavefronts;
  shared_ld_conflicts += other.shared_ld_conflicts;
  shared_st_conflicts += other.shared_st_conflicts;
  local_ld_requests += other.local_ld_requests;
  local_ld_sectors += other.local_ld_sectors;
  local_st_requests += other.local_st_requests;
  local_st_sectors += other.local_st_sectors;
  shared_ld_inst_exact = shared_ld_inst_exact || other.shared_ld_inst_exact;
  if (instructions && other.instructions)
    *instructions += *other.instructions;
  else
    instructions.reset();
  if (constant_cache && other.constant_cache) {
    constant_cache->divergent_instructions += other.constant_cache->divergent_instructions;
    constant_cache->replays += other.constant_cache->replays;
  } else {
    constant_cache.reset();
  }
  return *this;
}

bool operator==(const access_counts& a, const access_counts& b) {
  return a.global_ld_requests == b.global_ld_requests &&
         a.global_ld_sectors == b.global_ld_sectors &&
         a.global_st_requests == b.global_st_requests &&
         a.global_st_sectors == b.global_st_sectors && a.global_ld_bytes == b.global_ld_bytes &&
         a.global_st_bytes == b.global_st_bytes &&
         a.shared_ld_instructions == b.shared_ld_instructions &&
         a.shared_st_instructions == b.shared_st_instructions &&
         a.shared_ld_wavefronts == b.shared_ld_wavefronts &&
         a.shared_st_wavefronts == b.shared_st_wavefronts &&
         a.shared_ld_conflicts == b.shared_ld_conflicts &&
         a.shared_st_conflicts == b.shared_st_conflicts &&
         a.local_ld_requests == b.local_ld_requests && a.local_ld_sectors == b.local_ld_sectors &&
         a.local_st_requests == b.local_st_requests && a.local_st_sectors == b.local_st_sectors &&
         a.shared_ld_inst_exact == b.shared_ld_inst_exact && a.instructions == b.instructions &&
         a.constant_cache == b.constant_cache;
}

access_counts count_warp_access(const warp_access& access) {
  check_width(access.width_bytes);
  access_counts counts;
  if (access.space != memory_space::shared) {
    count_global(access, counts);
  } else {
    count_shared(access, counts);
  }
  return counts;
}

void access_model::record(const warp_access& access, std::uint64_t times) {
  if (times == 0) return;
  m_counts += count_warp_access(access).scaled(times);
}

}  // namespace cudalab::model
