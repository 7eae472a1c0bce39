// The tracer's lane folding (lane_fold.hpp) run on the host: the steps the patch runs on 32
// lanes at once, run lane after lane over arrays. The tests hold it equal to the access model;
// the patch runs the same steps with shuffles.
#pragma once

#include "cudalab/model/access_model.hpp"
#include "cudalab/trace/lane_fold.hpp"

#include <array>
#include <cstdint>

namespace cudalab::trace {

// Folds a warp-level access whose active lanes (address != model::inactive_lane) form one group.
inline folded_access fold_on_host(const model::warp_access& access) {
  std::uint32_t group = 0;
  for (int j = 0; j < fold_warp_size; ++j)
    if (access.address[static_cast<std::size_t>(j)] != model::inactive_lane) group |= 1u << j;
  folded_access out;
  if (group == 0) return out;
  const unsigned width = access.width_bytes;
  if (access.space == model::memory_space::global) {
    std::array<std::uint64_t, fold_warp_size> sectors{};
    for (int j = 0; j < fold_warp_size; ++j)
      sectors[static_cast<std::size_t>(j)] = sector_of(access.address[static_cast<std::size_t>(j)]);
    const auto sector_of_lane = [&](int j) { return sectors[static_cast<std::size_t>(j)]; };
    for (int lane = 0; lane < fold_warp_size; ++lane)
      if (lane_in(group, lane) &&
          first_in_sector(lane, sectors[static_cast<std::size_t>(lane)], group, sector_of_lane))
        ++out.sectors;
    out.bytes = static_cast<std::uint64_t>(popcount32(group)) * width;
    return out;
  }
  std::array<std::uint64_t, fold_warp_size> words{};
  std::array<std::uint32_t, fold_warp_size> firsts{};
  std::array<std::uint32_t, fold_warp_size> busiest{};
  for (int j = 0; j < fold_warp_size; ++j)
    words[static_cast<std::size_t>(j)] = first_word(access.address[static_cast<std::size_t>(j)]);
  const auto word_of_lane = [&](int j) { return words[static_cast<std::size_t>(j)]; };
  const auto first_of_lane = [&](int j) { return firsts[static_cast<std::size_t>(j)]; };
  const auto busiest_of_lane = [&](int j) { return busiest[static_cast<std::size_t>(j)]; };
  for (int lane = 0; lane < fold_warp_size; ++lane)
    firsts[static_cast<std::size_t>(lane)] =
        first_words(lane, words[static_cast<std::size_t>(lane)], group, width, word_of_lane);
  const bool load = access.kind == model::access_kind::load;
  for (int lane = 0; lane < fold_warp_size; ++lane)
    busiest[static_cast<std::size_t>(lane)] = busiest_own_bank(
        lane, words[static_cast<std::size_t>(lane)], firsts[static_cast<std::size_t>(lane)], group,
        width, load, word_of_lane, first_of_lane);
  for (int lane = 0; lane < fold_warp_size; ++lane) {
    if (!leads_phase(lane, group, width, load)) continue;
    const bool uniform =
        half_reads_one_word(lane, words[static_cast<std::size_t>(lane)], group, word_of_lane);
    const phase_cost cost =
        cost_of_phase(lane, group, width, load,
                      phase_wavefronts(lane, group, width, load, busiest_of_lane), uniform);
    out.wavefronts += cost.wavefronts;
    out.ideal += cost.ideal;
  }
  return out;
}

}  // namespace cudalab::trace
