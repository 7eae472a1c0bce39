// How lab 04's models walk a launch: warp by warp through the kernels' own index functions,
// over one block of each repeating class (cudalab/model/block_classes.hpp) or over every block
// (the tests' check of the classes). Shared by coalescing_model.cpp and particle_model.cpp.
#pragma once

#include "coalescing/coalescing_index.cuh"

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace cudalab::labs::coalescing_walk {

using opt_address = std::optional<std::uint64_t>;

enum class walk { block_classes, every_block };

// The counts of a launch whose warps each issue what warp_fn(warp, access_model&) records.
template <class WarpFn>
model::access_counts walk_launch(walk how, const model::grid_axis& axis, unsigned block,
                                 WarpFn&& warp_fn) {
  const auto block_counts = [&](std::uint64_t b) {
    model::access_model m;
    model::for_each_warp_of_block(b, block, [&](const model::warp_threads& w) { warp_fn(w, m); });
    return m.counts();
  };
  return how == walk::every_block ? model::sum_every_block(axis, block_counts)
                                  : model::sum_block_classes(axis, block_counts);
}

// The element of a lane's thread in a one-thread-an-element launch.
inline std::uint64_t element(const model::warp_threads& w, unsigned lane) {
  return coalescing::element_index(w.block, w.block_threads, w.thread_in_block(lane));
}

// The index function of a kernel guarded by i < n, its thread's element: lane -> to_index(i),
// inactive past n.
template <class ToIndex>
auto guarded_by(std::size_t n, ToIndex to_index) {
  return [n, to_index](const model::warp_threads& w, unsigned lane) -> opt_address {
    const std::uint64_t i = element(w, lane);
    if (i >= n) return std::nullopt;
    return to_index(i);
  };
}

inline constexpr auto own_element = [](std::uint64_t i) { return i; };

// What a prediction costs: the warps of every block the walk visits, times the warp
// instructions each issues.
inline double walk_cost(const model::grid_axis& axis, int block, unsigned warp_instructions) {
  const auto warps_per_block =
      static_cast<double>((block + model::warp_size - 1) / model::warp_size);
  return static_cast<double>(model::blocks_walked(axis)) * warps_per_block * warp_instructions;
}

}  // namespace cudalab::labs::coalescing_walk
