// How the tracer folds the lanes of one warp-level memory access into the access model's counts,
// written once for the device (the tracer's patch, where lanes exchange values by shuffles) and
// the host (the tests, which run the same steps lane after lane over arrays).
//
// A warp-level access is the group of lanes that reach the same instruction (pc) together. Its
// counts follow the access model's rules (cudalab/model/access_model.hpp, docs/access_model.md):
//   global: one request; sectors = distinct 32-byte segments touched by the group's lanes;
//   shared: phases of 32 lanes (1-, 2-, 4-byte accesses), 16 lanes (8-byte) or 8 lanes (16-byte
//           stores); a phase costs the most distinct 4-byte words any one of the 32 banks must
//           serve; ideal = phases with a lane of the group; conflicts = wavefronts - ideal.
//           16-byte loads go by half-warps: a half whose lanes all read one address costs 1
//           (ideal 1); otherwise words are made distinct within each quarter-warp only, the
//           quarters' counts add per bank (a word both quarters read counts twice), the half
//           costs its busiest bank and ideal = min(quarters with a lane, that cost).
// So a lane's words are deduplicated against the lanes of its "dedupe block" (the phase, or the
// quarter-warp of a 16-byte load) and counted per bank over its phase (the half-warp there).
// The hardware faults on a misaligned access, so a lane's access of w bytes at address a has
// a % w == 0: it lies inside one sector and covers max(1, w / 4) consecutive words.
//
// Every step reads other lanes only through `lane_value(j)`, called for every j in 0..31 in the
// same order by every lane: on the device that is __shfl_sync over the lanes in the callback
// (uniform, as a shuffle needs), on the host an array lookup. No step uses redux (__reduce_*),
// which a tools patch may not contain.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CUDALAB_TRACE_HD __host__ __device__ __forceinline__
#else
#define CUDALAB_TRACE_HD inline
#endif

namespace cudalab::trace {

inline constexpr int fold_warp_size = 32;

CUDALAB_TRACE_HD bool lane_in(std::uint32_t group, int lane) { return (group >> lane) & 1u; }

CUDALAB_TRACE_HD int popcount32(std::uint32_t v) {
  int n = 0;
  for (; v != 0; v &= v - 1) ++n;
  return n;
}

// Global: the sector a lane touches.
CUDALAB_TRACE_HD std::uint64_t sector_of(std::uint64_t address) { return address >> 5; }

// Global: true when no earlier lane of the group touches `lane`'s sector, so that the group's
// sectors are the number of its lanes for which this holds. `sector_of_lane(j)`: lane j's sector.
template <class LaneValue>
CUDALAB_TRACE_HD bool first_in_sector(int lane, std::uint64_t sector, std::uint32_t group,
                                      LaneValue sector_of_lane) {
  bool first = true;
  for (int j = 0; j < fold_warp_size; ++j) {
    const std::uint64_t other = sector_of_lane(j);
    if (j < lane && lane_in(group, j) && other == sector) first = false;
  }
  return first;
}

// Shared: how the warp is split for an access width; `load` is true for a load (a read that does
// not write): only 16-byte loads are served by half-warps.
CUDALAB_TRACE_HD bool half_warp_load(unsigned width, bool load) { return width == 16 && load; }
// The lanes whose common words are served once (the phase, or a 16-byte load's quarter-warp).
CUDALAB_TRACE_HD int lanes_per_dedupe(unsigned width) {
  return width <= 4 ? 32 : (width == 8 ? 16 : 8);
}
// The lanes whose per-bank counts make up one cost.
CUDALAB_TRACE_HD int lanes_per_phase(unsigned width, bool load) {
  return half_warp_load(width, load) ? 16 : lanes_per_dedupe(width);
}
CUDALAB_TRACE_HD unsigned words_per_lane(unsigned width) { return width <= 4 ? 1u : width / 4; }
CUDALAB_TRACE_HD std::uint64_t first_word(std::uint64_t address) { return address >> 2; }

// Shared step 1: which of `lane`'s words no earlier lane of its dedupe block touches (bit t: the
// word first_word + t). `word_of_lane(j)`: lane j's first word.
template <class LaneValue>
CUDALAB_TRACE_HD std::uint32_t first_words(int lane, std::uint64_t word, std::uint32_t group,
                                           unsigned width, LaneValue word_of_lane) {
  const unsigned n = words_per_lane(width);
  const int per_block = lanes_per_dedupe(width);
  std::uint32_t first = (1u << n) - 1u;
  for (int j = 0; j < fold_warp_size; ++j) {
    const std::uint64_t other = word_of_lane(j);
    if (j < lane && lane_in(group, j) && j / per_block == lane / per_block) {
      for (unsigned t = 0; t < n; ++t)
        if (word + t >= other && word + t < other + n) first &= ~(1u << t);
    }
  }
  return first;
}

// Shared step 2: the most step-1 words of the phase that fall in the bank of one of `lane`'s
// own first words (0 when it has none). The phase's cost is the largest of these over its lanes:
// every counted word is some lane's first word. For a 16-byte load a word first in both
// quarter-warps of the half is counted twice, as the rule says.
template <class WordOf, class FirstOf>
CUDALAB_TRACE_HD std::uint32_t busiest_own_bank(int lane, std::uint64_t word, std::uint32_t first,
                                                std::uint32_t group, unsigned width, bool load,
                                                WordOf word_of_lane, FirstOf first_of_lane) {
  const unsigned n = words_per_lane(width);
  const int per_phase = lanes_per_phase(width, load);
  std::uint32_t count[4] = {0, 0, 0, 0};
  for (int j = 0; j < fold_warp_size; ++j) {
    const std::uint64_t other = word_of_lane(j);
    const std::uint32_t other_first = first_of_lane(j);
    if (!lane_in(group, j) || j / per_phase != lane / per_phase) continue;
    for (unsigned u = 0; u < n; ++u) {
      if (!((other_first >> u) & 1u)) continue;
      for (unsigned t = 0; t < n; ++t)
        if (((word + t) & 31u) == ((other + u) & 31u)) ++count[t];
    }
  }
  std::uint32_t most = 0;
  for (unsigned t = 0; t < n; ++t)
    if (((first >> t) & 1u) && count[t] > most) most = count[t];
  return most;
}

// Shared step 3: the largest step-2 value over `lane`'s phase. `busiest_of_lane(j)`: lane j's.
template <class LaneValue>
CUDALAB_TRACE_HD std::uint32_t phase_wavefronts(int lane, std::uint32_t group, unsigned width,
                                                bool load, LaneValue busiest_of_lane) {
  const int per_phase = lanes_per_phase(width, load);
  std::uint32_t most = 0;
  for (int j = 0; j < fold_warp_size; ++j) {
    const std::uint32_t other = busiest_of_lane(j);
    if (lane_in(group, j) && j / per_phase == lane / per_phase && other > most) most = other;
  }
  return most;
}

// Shared: true when every lane of the group in `lane`'s half-warp reads `lane`'s first word (for
// aligned 16-byte accesses, the same address). Every lane computes it alike, so it loops over all
// 32 lanes whatever the width: on the device each iteration is a shuffle all lanes must join.
template <class LaneValue>
CUDALAB_TRACE_HD bool half_reads_one_word(int lane, std::uint64_t word, std::uint32_t group,
                                          LaneValue word_of_lane) {
  bool same = true;
  for (int j = 0; j < fold_warp_size; ++j) {
    const std::uint64_t other = word_of_lane(j);
    if (lane_in(group, j) && j / 16 == lane / 16 && other != word) same = false;
  }
  return same;
}

// Shared: true for the first lane of the group in its phase; the group's wavefronts and ideal
// wavefronts are the sums of cost_of_phase over these lanes.
CUDALAB_TRACE_HD bool leads_phase(int lane, std::uint32_t group, unsigned width, bool load) {
  const int per_phase = lanes_per_phase(width, load);
  const int phase_start = lane / per_phase * per_phase;
  const std::uint32_t earlier = (lane == 0) ? 0u : (group & ((1u << lane) - 1u));
  const std::uint32_t phase_mask =
      per_phase == 32 ? ~0u : (((1u << per_phase) - 1u) << phase_start);
  return lane_in(group, lane) && (earlier & phase_mask) == 0;
}

struct phase_cost {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal = 0;
};

// Shared: the cost of `lane`'s phase from step 3's `busiest` and half_reads_one_word's `uniform`
// (used only for a 16-byte load). A phase reached here has a lane of the group.
CUDALAB_TRACE_HD phase_cost cost_of_phase(int lane, std::uint32_t group, unsigned width, bool load,
                                          std::uint32_t busiest, bool uniform) {
  if (!half_warp_load(width, load)) return {busiest, 1u};
  if (uniform) return {1u, 1u};
  const int half_start = lane / 16 * 16;
  std::uint32_t quarters = 0;
  for (int q = half_start; q < half_start + 16; q += 8)
    if (((group >> q) & 0xffu) != 0) ++quarters;
  return {busiest, quarters < busiest ? quarters : busiest};
}

// What one warp-level access adds to a pc's totals.
struct folded_access {
  std::uint64_t sectors = 0;     // global
  std::uint64_t bytes = 0;       // global: the bytes the lanes asked for
  std::uint64_t wavefronts = 0;  // shared
  std::uint64_t ideal = 0;       // shared: the ideal wavefronts (cost_of_phase)
};

}  // namespace cudalab::trace
