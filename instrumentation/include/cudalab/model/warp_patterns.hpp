// Address generators for the access model: walk the warps of a launch the way the hardware
// forms them, and turn "which address does this lane touch?" into a warp_access.
//
// A lab predicts its counters by calling its kernel's own __host__ __device__ index function
// for every lane of every warp, so the prediction cannot drift from the code. These helpers
// supply the lanes: a block is cut into warps of 32 consecutive linear thread ids
// (threadIdx.x fastest), and the last warp of a block whose size is not a multiple of 32 has
// fewer lanes (a 48-thread block has a full warp and one of 16 lanes). Lanes past the end of
// the data are the kernel's business: its bounds guard decides, and the lab's lambda returns
// std::nullopt for a lane that touches nothing.
//
//   model::access_model m;
//   model::for_each_warp(model::launch_threads(n, 256), 256, [&](const model::warp_threads& w) {
//     m.record(model::global_load(w, sizeof(float), [&](std::uint64_t i) {
//       return model::element_address(in_base, i, sizeof(float), n);
//     }));
//   });
#pragma once

#include "cudalab/model/access_model.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace cudalab::model {

// Threads launched by a 1D grid that covers n elements with blocks of block_threads.
inline std::uint64_t launch_threads(std::uint64_t n, unsigned block_threads) {
  if (block_threads == 0) throw std::invalid_argument("launch_threads: block_threads is 0");
  return (n + block_threads - 1) / block_threads * block_threads;
}

// The lanes of one warp of a 1D launch.
struct warp_threads {
  std::uint64_t block = 0;     // blockIdx.x
  unsigned block_threads = 0;  // blockDim.x
  unsigned first_thread = 0;   // threadIdx.x of lane 0
  unsigned lanes = warp_size;  // lanes 0 .. lanes-1 exist

  bool active(unsigned lane) const noexcept { return lane < lanes; }
  unsigned thread_in_block(unsigned lane) const noexcept { return first_thread + lane; }
  // blockIdx.x * blockDim.x + threadIdx.x
  std::uint64_t global_id(unsigned lane) const noexcept {
    return block * block_threads + first_thread + lane;
  }
  unsigned warp_in_block() const noexcept { return first_thread / warp_size; }
};

// Calls fn(const Warp&) for every warp of a block of block_threads threads, in order: `w` with
// its first thread (the member `first`, a linear thread id) and its lanes set. A warp is 32
// consecutive linear thread ids; the last takes what is left. The 1D and 2D walks share it.
template <class Warp, class Fn>
void cut_into_warps(Warp w, unsigned Warp::*first, unsigned block_threads, Fn&& fn) {
  for (unsigned linear = 0; linear < block_threads; linear += warp_size) {
    w.*first = linear;
    w.lanes = std::min<unsigned>(warp_size, block_threads - linear);
    fn(static_cast<const Warp&>(w));
  }
}

// Calls fn(const warp_threads&) for every warp of block `block` of a 1D launch, in order.
template <class Fn>
void for_each_warp_of_block(std::uint64_t block, unsigned block_threads, Fn&& fn) {
  warp_threads w;
  w.block = block;
  w.block_threads = block_threads;
  cut_into_warps(w, &warp_threads::first_thread, block_threads, fn);
}

// Calls fn(const warp_threads&) for every warp of a 1D launch of grid_threads threads in blocks
// of block_threads, block by block, warps in order. grid_threads must be whole blocks
// (use launch_threads(n, block_threads)).
template <class Fn>
void for_each_warp(std::uint64_t grid_threads, unsigned block_threads, Fn&& fn) {
  if (block_threads == 0) throw std::invalid_argument("for_each_warp: block_threads is 0");
  if (grid_threads % block_threads != 0) {
    throw std::invalid_argument("for_each_warp: grid_threads (" + std::to_string(grid_threads) +
                                ") is not a multiple of block_threads (" +
                                std::to_string(block_threads) + ")");
  }
  const std::uint64_t blocks = grid_threads / block_threads;
  for (std::uint64_t b = 0; b < blocks; ++b) for_each_warp_of_block(b, block_threads, fn);
}

// The lanes of one warp of a 2D launch (threadIdx.x fastest, then threadIdx.y).
struct warp_threads_2d {
  unsigned block_x = 0, block_y = 0;  // blockIdx
  unsigned block_dim_x = 0, block_dim_y = 0;
  unsigned first_linear = 0;  // linear thread id in the block of lane 0
  unsigned lanes = warp_size;

  bool active(unsigned lane) const noexcept { return lane < lanes; }
  unsigned thread_x(unsigned lane) const noexcept { return (first_linear + lane) % block_dim_x; }
  unsigned thread_y(unsigned lane) const noexcept { return (first_linear + lane) / block_dim_x; }
  // blockIdx.x * blockDim.x + threadIdx.x, and the same in y
  std::uint64_t global_x(unsigned lane) const noexcept {
    return std::uint64_t{block_x} * block_dim_x + thread_x(lane);
  }
  std::uint64_t global_y(unsigned lane) const noexcept {
    return std::uint64_t{block_y} * block_dim_y + thread_y(lane);
  }
};

// Calls fn(const warp_threads_2d&) for every warp of block (bx, by) of block_x * block_y
// threads, in order.
template <class Fn>
void for_each_warp_of_block_2d(unsigned bx, unsigned by, unsigned block_x, unsigned block_y,
                               Fn&& fn) {
  if (block_x == 0 || block_y == 0) throw std::invalid_argument("for_each_warp_2d: empty block");
  warp_threads_2d w;
  w.block_dim_x = block_x;
  w.block_dim_y = block_y;
  w.block_x = bx;
  w.block_y = by;
  cut_into_warps(w, &warp_threads_2d::first_linear, block_x * block_y, fn);
}

// Calls fn(const warp_threads_2d&) for every warp of a grid of grid_x * grid_y blocks of
// block_x * block_y threads (blocks in x-fastest order).
template <class Fn>
void for_each_warp_2d(unsigned grid_x, unsigned grid_y, unsigned block_x, unsigned block_y,
                      Fn&& fn) {
  if (block_x == 0 || block_y == 0) throw std::invalid_argument("for_each_warp_2d: empty block");
  for (unsigned by = 0; by < grid_y; ++by)
    for (unsigned bx = 0; bx < grid_x; ++bx)
      for_each_warp_of_block_2d(bx, by, block_x, block_y, fn);
}

// base + index * element_bytes, or nullopt where index >= n (the kernel's bounds guard).
inline std::optional<std::uint64_t> element_address(std::uint64_t base, std::uint64_t index,
                                                    std::uint64_t element_bytes,
                                                    std::uint64_t n = ~std::uint64_t{0}) {
  if (index >= n) return std::nullopt;
  return base + index * element_bytes;
}

// A warp_access from lane_fn(unsigned lane) -> std::optional<std::uint64_t> byte address.
template <class LaneFn>
warp_access make_warp_access(memory_space space, access_kind kind, unsigned width_bytes,
                             LaneFn&& lane_fn) {
  warp_access access = warp_access::make(space, kind, width_bytes);
  for (unsigned lane = 0; lane < warp_size; ++lane) {
    const std::optional<std::uint64_t> a = lane_fn(lane);
    if (a) access.address[lane] = *a;
  }
  return access;
}

// The same for the lanes of a warp of a launch: thread_fn(const Warp&, unsigned lane) is asked
// only for lanes that exist; the others stay inactive.
template <class Warp, class ThreadFn>
warp_access make_warp_access(memory_space space, access_kind kind, unsigned width_bytes,
                             const Warp& warp, ThreadFn&& thread_fn) {
  return make_warp_access(space, kind, width_bytes,
                          [&](unsigned lane) -> std::optional<std::uint64_t> {
                            if (!warp.active(lane)) return std::nullopt;
                            return thread_fn(warp, lane);
                          });
}

// A 1D warp's access of `Kind` in `Space` whose address depends on one index of each lane,
// LaneIndex{}(w, lane): fn(index) -> std::optional<std::uint64_t>. The shortcuts below are its
// four uses.
template <memory_space Space, access_kind Kind, class LaneIndex>
struct access_by_lane_index {
  template <class Fn>
  warp_access operator()(const warp_threads& w, unsigned width_bytes, Fn&& fn) const {
    return make_warp_access(
        Space, Kind, width_bytes, w,
        [&](const warp_threads& ww, unsigned lane) { return fn(LaneIndex{}(ww, lane)); });
  }
};

struct lane_global_id {
  std::uint64_t operator()(const warp_threads& w, unsigned lane) const noexcept {
    return w.global_id(lane);
  }
};
struct lane_thread_in_block {
  unsigned operator()(const warp_threads& w, unsigned lane) const noexcept {
    return w.thread_in_block(lane);
  }
};

// Global memory by the global thread id: fn(std::uint64_t global_id).
inline constexpr access_by_lane_index<memory_space::global, access_kind::load, lane_global_id>
    global_load{};
inline constexpr access_by_lane_index<memory_space::global, access_kind::store, lane_global_id>
    global_store{};
// Shared memory is per block: fn(unsigned thread_in_block) gives the byte offset in the block's
// shared memory.
inline constexpr access_by_lane_index<memory_space::shared, access_kind::load, lane_thread_in_block>
    shared_load{};
inline constexpr access_by_lane_index<memory_space::shared, access_kind::store,
                                      lane_thread_in_block>
    shared_store{};

}  // namespace cudalab::model
