// Summing a launch's counts without walking every block: blocks that touch memory the same
// way are walked once and counted as many times as they occur.
//
// Why it is exact. The model's counts of a warp instruction depend on its addresses only
// through the 32-byte sectors they touch (global) and through the banks of the 4-byte words
// they touch, address / 4 mod 32 (shared). Moving every lane by the same multiple of 128 bytes
// keeps both: the sectors move together and no two merge or split, and every word keeps its
// bank. In the labs' kernels a block's addresses are the first block's moved by a fixed number
// of bytes per block (blockIdx.x * blockDim.x + threadIdx.x scaled by the element size), so
// blocks b and b + p, where p blocks move a multiple of 128 bytes, count the same, as long as
// the kernel's bounds guard lets every lane of both through.
//
// Each axis of the grid is therefore cut into three runs:
//   [0, whole)         whole blocks: every lane passes the guard; alike modulo `period`
//   [whole, edge_end)  edge blocks, partly past the data: walked one by one
//   [edge_end, blocks) idle blocks: no lane passes the guard, nothing is issued
// and a 2D grid is the product of its two axes (a guard row < side && col < side splits into
// one condition a axis). The lab states these runs from its kernel's launch and index
// functions; its tests hold the sum against walking every block (sum_every_block).
#pragma once

#include "cudalab/model/access_model.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cudalab::model {

// Shifting every address by a multiple of this many bytes leaves a warp's counts unchanged.
inline constexpr std::uint64_t repeat_bytes = 128;

// The fewest blocks whose combined shift is a multiple of repeat_bytes, for a kernel whose
// addresses move `bytes_per_block` bytes from one block to the next: 1 for 128 bytes or 0, 32
// for 4 bytes, 128 for 1. With several buffers, the largest of their periods (all divide 128).
inline std::uint64_t repeat_period(std::initializer_list<std::uint64_t> bytes_per_block) {
  std::uint64_t period = 1;
  for (std::uint64_t bytes : bytes_per_block) {
    std::uint64_t p = 1;
    while ((bytes * p) % repeat_bytes != 0) p *= 2;
    period = std::max(period, p);
  }
  return period;
}

// How a prediction sums a launch: the shortcut, or every block (and every loop step), the
// reference its tests hold it to.
enum class walk { block_classes, every_block };

// One axis of a grid, cut as described above.
struct grid_axis {
  std::uint64_t blocks = 1;    // blocks launched along this axis
  std::uint64_t whole = 1;     // blocks [0, whole) are whole
  std::uint64_t edge_end = 1;  // blocks [whole, edge_end) are edges; the rest are idle
  std::uint64_t period = 1;    // whole blocks b and b + period count the same

  // A 1D launch of `threads` guarded threads (i < threads) in blocks of `block_threads`, whose
  // addresses move `bytes_per_block` a block (per buffer).
  static grid_axis guarded(std::uint64_t threads, std::uint64_t block_threads,
                           std::initializer_list<std::uint64_t> bytes_per_block);

  // An axis of `count` blocks or loop steps of which [0, whole) pass every guard and repeat with
  // `period` (whole is capped at count), and [whole, count) are edges walked one by one.
  static grid_axis with_whole(std::uint64_t count, std::uint64_t whole, std::uint64_t period);

  // The representative blocks of the axis, each with the number of blocks it stands for.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> representatives() const;
  // The blocks `how` walks: the representatives, or every block once.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> walked(walk how) const;
  void check() const;
};

inline grid_axis grid_axis::guarded(std::uint64_t threads, std::uint64_t block_threads,
                                    std::initializer_list<std::uint64_t> bytes_per_block) {
  if (block_threads == 0) throw std::invalid_argument("grid_axis: block_threads is 0");
  grid_axis a;
  a.blocks = (threads + block_threads - 1) / block_threads;
  a.whole = threads / block_threads;
  a.edge_end = a.blocks;
  a.period = repeat_period(bytes_per_block);
  return a;
}

inline grid_axis grid_axis::with_whole(std::uint64_t count, std::uint64_t whole,
                                       std::uint64_t period) {
  grid_axis a;
  a.blocks = a.edge_end = count;
  a.whole = std::min(whole, count);
  a.period = period;
  return a;
}

inline void grid_axis::check() const {
  if (!(whole <= edge_end && edge_end <= blocks) || period == 0)
    throw std::invalid_argument("grid_axis: need whole <= edge_end <= blocks and period >= 1 (" +
                                std::to_string(whole) + ", " + std::to_string(edge_end) + ", " +
                                std::to_string(blocks) + ", " + std::to_string(period) + ")");
}

inline std::vector<std::pair<std::uint64_t, std::uint64_t>> grid_axis::representatives() const {
  check();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> reps;
  const std::uint64_t classes = std::min(period, whole);
  for (std::uint64_t r = 0; r < classes; ++r)
    reps.emplace_back(r, (whole - r + period - 1) / period);
  for (std::uint64_t b = whole; b < edge_end; ++b) reps.emplace_back(b, 1);
  return reps;
}

inline std::vector<std::pair<std::uint64_t, std::uint64_t>> grid_axis::walked(walk how) const {
  if (how == walk::block_classes) return representatives();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> all;
  for (std::uint64_t b = 0; b < blocks; ++b) all.emplace_back(b, 1);
  return all;
}

// Blocks the shortcut walks: what a prediction's cost grows with.
inline std::uint64_t blocks_walked(const grid_axis& x, const grid_axis& y = {}) {
  x.check();
  y.check();
  return (std::min(x.period, x.whole) + x.edge_end - x.whole) *
         (std::min(y.period, y.whole) + y.edge_end - y.whole);
}

// The sum of block_counts(bx, by) -> access_counts over the grid x by y, walking only the
// representatives of each axis.
template <class BlockFn>
access_counts sum_block_classes(const grid_axis& x, const grid_axis& y, BlockFn&& block_counts) {
  const auto xs = x.representatives();
  const auto ys = y.representatives();
  access_counts total;
  for (const auto& [by, y_times] : ys)
    for (const auto& [bx, x_times] : xs) total += block_counts(bx, by).scaled(x_times * y_times);
  return total;
}
template <class BlockFn>
access_counts sum_block_classes(const grid_axis& x, BlockFn&& block_counts) {
  return sum_block_classes(x, grid_axis{},
                           [&](std::uint64_t bx, std::uint64_t) { return block_counts(bx); });
}

// The same sum walking every launched block, idle ones included: the reference the shortcut
// is tested against.
template <class BlockFn>
access_counts sum_every_block(const grid_axis& x, const grid_axis& y, BlockFn&& block_counts) {
  x.check();
  y.check();
  access_counts total;
  for (std::uint64_t by = 0; by < y.blocks; ++by)
    for (std::uint64_t bx = 0; bx < x.blocks; ++bx) total += block_counts(bx, by);
  return total;
}
template <class BlockFn>
access_counts sum_every_block(const grid_axis& x, BlockFn&& block_counts) {
  return sum_every_block(x, grid_axis{},
                         [&](std::uint64_t bx, std::uint64_t) { return block_counts(bx); });
}

}  // namespace cudalab::model
