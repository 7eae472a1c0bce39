#include "reduction_divergence_model.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/model/access_model.hpp"

#include <algorithm>

namespace cudalab::labs::reduction_model {
namespace {

constexpr unsigned warp = model::warp_size;

// One block of interleaved_divergent: each step s, each warp, its lanes' predicate.
divergence_counts interleaved_divergent_block(unsigned block) {
  divergence_counts d;
  for (unsigned s = 1; s < block; s *= 2)
    for (unsigned first = 0; first < block; first += warp) {
      unsigned active = 0;
      const unsigned lanes = std::min(warp, block - first);
      for (unsigned lane = 0; lane < lanes; ++lane)
        active += reduction::interleaved_divergent_active(first + lane, s) ? 1u : 0u;
      if (active == 0) continue;  // the whole warp jumps over the call: uniform
      ++d.body_warps;
      d.body_lanes += active;
      if (active < lanes) ++d.divergent_branches;
    }
  return d;
}

}  // namespace

double divergence_counts::body_lanes_per_warp() const {
  return body_warps == 0 ? static_cast<double>(warp)
                         : static_cast<double>(body_lanes) / static_cast<double>(body_warps);
}

divergence_counts predict_divergence(kernel k, std::size_t n, unsigned block) {
  if (!reduction::is_valid_block(block))
    throw usage_error(
        "block " + std::to_string(block) + ": the reduction kernels take a power of two in " +
        std::to_string(reduction::min_block) + ".." + std::to_string(reduction::max_block));
  switch (k) {
    case kernel::interleaved_divergent: {
      // Every block runs the same steps with the same lanes, tail block included (its
      // missing elements are zeros, not absent threads).
      const divergence_counts one = interleaved_divergent_block(block);
      const std::uint64_t blocks = blocks_of(k, n, block);
      divergence_counts d;
      d.divergent_branches = one.divergent_branches * blocks;
      d.body_warps = one.body_warps * blocks;
      d.body_lanes = one.body_lanes * blocks;
      return d;
    }
    case kernel::interleaved_strided:
    case kernel::sequential:
    case kernel::first_add:
    case kernel::warp_shuffle:
      return {};  // predicated bodies and warp-uniform tests: nothing diverges
    default:
      throw usage_error("predict_divergence: only the tree kernels are modelled");
  }
}

}  // namespace cudalab::labs::reduction_model
