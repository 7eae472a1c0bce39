// Runs one warp through the SASS of a kernel and counts what the profiler counts:
// warp instructions (smsp__inst_executed), thread instructions (smsp__thread_inst_executed:
// the active lanes of each, predicated-off lanes included) and branch executions, uniform or
// divergent (smsp__sass_branch_targets_threads_uniform / _divergent).
//
// Only control flow is interpreted. Where a conditional BRA or EXIT needs an answer, the walk
// asks the kernel's model, lane by lane: "does this lane take site k on its v-th visit?" The
// sites are the function's conditional BRA and EXIT instructions in address order, and the
// model answers with the kernel's own source conditions (`tid % (2*s) == 0`, `s < blockDim.x`,
// `tid == 0`), so the instruction counts come from the binary and the lanes from the source.
//
// How a warp runs divergent code (Volta and later): BSSY Bn, <join> records a convergence
// barrier; a branch on which the active lanes disagree splits the warp; each part runs until
// it reaches BSYNC Bn, and the whole warp then continues after the BSYNC. Each part issues
// the instructions it runs, the BSYNC included. A split with no open barrier runs each part to
// its EXIT. CALL and RET move along a return stack; EXIT removes lanes for good.
//
// Counted as branches: BRA, CALL and RET (what the measured H100 counts fit: see lab 05's
// instruction model tests); a branch is divergent when its active lanes go to two targets.
#pragma once

#include "cudalab/model/sass_program.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace cudalab::model::sass {

struct instruction_counts {
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::uint64_t uniform_branches = 0;
  std::uint64_t divergent_branches = 0;

  instruction_counts& operator+=(const instruction_counts& other);
  friend bool operator==(const instruction_counts& a, const instruction_counts& b) {
    return a.warp_instructions == b.warp_instructions &&
           a.thread_instructions == b.thread_instructions &&
           a.uniform_branches == b.uniform_branches && a.divergent_branches == b.divergent_branches;
  }
  instruction_counts scaled(std::uint64_t times) const;
  // smsp__average_thread_inst_executed_per_inst_executed.ratio (0 with no instruction).
  double threads_per_instruction() const;
  // smsp__sass_average_branch_targets_threads_uniform.pct (0 with no branch, as ncu prints).
  double branch_uniformity_pct() const;
};

// Does `lane` (0..31) take conditional site `site` on its `visit`-th arrival there (from 0)?
// For a BRA: jump to its target. For an EXIT: leave the kernel.
using lane_decision = std::function<bool(std::size_t site, unsigned lane, std::uint32_t visit)>;

// The number of conditional sites (guarded BRA and EXIT) of `f`: what a model's answers are
// written against. A model checks it, so that a compiler that emits another shape makes the
// prediction unavailable instead of wrong.
std::size_t conditional_sites(const function& f);

// Walks the lanes `active_lanes` (bit l = lane l) from the first instruction of `f` until all
// have exited. Throws std::runtime_error if the walk passes `max_instructions` warp
// instructions (a decision that never ends a loop) or reaches code it cannot follow.
instruction_counts walk_warp(const function& f, std::uint32_t active_lanes,
                             const lane_decision& takes,
                             std::uint64_t max_instructions = std::uint64_t{1} << 26);

}  // namespace cudalab::model::sass
