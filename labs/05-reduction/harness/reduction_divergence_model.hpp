// Lab 05's divergence model: which warps split at a real branch of the tree kernels, walked
// with the kernels' own predicates (reduction_index.cuh).
//
// A branch diverges in a warp when some of its lanes take it and some do not; the hardware
// counts one divergent branch target per such warp and step
// (smsp__sass_branch_targets_threads_divergent.sum, exact). Which source-level `if` is a real
// branch is a property of the binary, read from the SASS of the release build:
//   interleaved_divergent  `if (tid % 2s == 0) add_partner(...)`: ptxas keeps this test as a
//                          branch over the call (BSSY / @P0 BRA / CALL.REL.NOINC / BSYNC), with
//                          P0 computed per lane from tid;
//   the other trees        `if (tid < s)` / `if (index < blockDim.x)` bodies are predicated
//                          (@P LDS/STS, no branch), and `if (tid < 32)` is whole warps: no
//                          divergent branch at all;
//   loads and the tail     `i < n ? in[i] : 0` is a select, not a branch.
// So the model predicts, per block: for interleaved_divergent, every (step, warp) whose lanes
// are partly active; for the other trees, 0. The GPU tests hold the hardware to it exactly.
//
// Thread efficiency (threads per warp instruction) also needs the instruction count of each
// code region of the binary: reduction_instruction_model.hpp predicts it by walking the SASS. This
// model gives, from the source alone, the lanes a warp brings into the branch body, the floor of
// that efficiency.
#pragma once

#include "reduction_model.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::labs::reduction_model {

struct divergence_counts {
  std::uint64_t divergent_branches = 0;  // warps x steps that split at a real branch
  std::uint64_t body_warps = 0;          // warps x steps that run the branch body
  std::uint64_t body_lanes = 0;          // lanes active in those warps
  // Mean active lanes of a warp running the body (32 when nothing diverges).
  double body_lanes_per_warp() const;
};

// The divergence of one launch of a tree kernel (interleaved_divergent, interleaved_strided,
// sequential, first_add, warp_shuffle) over n elements in blocks of `block` threads. Throws
// usage_error for other kernels or an invalid block.
divergence_counts predict_divergence(kernel k, std::size_t n, unsigned block);

}  // namespace cudalab::labs::reduction_model
