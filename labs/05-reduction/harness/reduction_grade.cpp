// `cudalab check 05-reduction`: grades the learner's block-sum kernel by its counters and its
// speed, measured beside the `sequential` reference at the same size.
//
// Each line stops one way of getting the right sums without the lesson:
//   - a divergent tree (tid % (2*s)) splits every warp at every step and reads many wavefronts;
//   - a strided tree (index = 2*s*tid) has bank conflicts and many wavefronts;
//   - a kernel that never builds a tree, but adds every element into its block's sum with a
//     global atomicAdd (or one atomicAdd a warp after a shuffle), runs 32 threads per
//     instruction with no shared traffic at all: only its global writes give it away, 8 or
//     more a 256-thread block where a tree writes one;
//   - a kernel that sums in one thread, or with shared-memory atomics (a compare-and-swap loop
//     on sm_90), reads shared memory in far more wavefronts than the tree.
// Shared conflicts are counted per instruction (SASS-level wavefronts beyond each
// instruction's ideal; docs/counters.md), so the bound is the reference's predicted conflicts.
#include "reduction_grade.hpp"

#include "cudalab/format_text.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/report.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace cudalab::labs {
namespace {

// Catalogue short names (metrics.hpp).
constexpr const char* red_requests = "red_requests";
constexpr const char* atom_requests = "atom_requests";
constexpr const char* blocks_launched = "blocks_launched";
constexpr const char* divergent_branches = "divergent_branches";

std::optional<double> sum_of(const counter_cell& cell, std::initializer_list<const char*> metrics) {
  double total = 0;
  for (const char* m : metrics) {
    const auto v = cell.get(m);
    if (!v) return std::nullopt;
    total += *v;
  }
  return total;
}

}  // namespace

grade_report grade_reduction(const result_row& ex, const std::vector<result_row>& refs) {
  grade_sheet g(ex,
                "The block sums are wrong: every element of the block must be added exactly once, "
                "and each step must finish (__syncthreads) before the next reads its results.");
  const result_row* ref = refs.empty() ? nullptr : &refs.front();
  const counter_cell no_counters;
  const counter_cell& ref_counters = ref ? ref->counters : no_counters;
  const auto missing = [&](const char* key, const std::string& what) {
    g.line(key, false, what + ": n/a (counter missing)");
    g.advise("Grading needs hardware counters (cudalab doctor).");
  };

  // A tree whose active threads stay whole warps splits a warp only inside the last one (its
  // five halvings below 32) and, at most once a warp, around a lane's store of the warp's
  // value: the bound follows from the lesson, not from one compiled shape (sequential's
  // predicated steps split none, a __noinline__ step or a shuffle tree's lane-0 store a few).
  // Both bounds count the blocks sequential launched at the same size, not the exercise's own:
  // blocks added to the grid that do nothing would otherwise raise them (dilution).
  const auto divergent = ex.counters.get(divergent_branches);
  const auto blocks = ref_counters.get(blocks_launched);
  const double warps = std::ceil(static_cast<double>(ex.config.block) / 32.0);
  if (divergent && blocks && warps > 0) {
    const double bound = *blocks * (warps + 5);
    if (!g.bounded("divergent_branches", "divergent branches", divergent, bound_kind::at_most,
                   bound,
                   formatted("%.0f blocks of sequential x (%.0f warps + 5)", *blocks, warps)))
      g.advise(
          formatted("Warps diverge: %.1f splits a block where a tree of whole warps needs at "
                    "most %.0f. With tid %% (2*s) the active threads are spread over every "
                    "warp; keep them contiguous: for (s = blockDim.x / 2; s > 0; s >>= 1) "
                    "if (tid < s) ...",
                    *divergent / *blocks, warps + 5));
  } else {
    missing("divergent_branches", "divergent branches");
  }

  const auto wf = sum_of(ex.counters, {"shared_ld_wavefronts", "shared_st_wavefronts"});
  const auto conflicts = sum_of(ex.counters, {"shared_ld_conflicts", "shared_st_conflicts"});
  if (conflicts) {
    double model_conflicts = 0;
    if (ref && ref->predicted)
      model_conflicts = static_cast<double>(ref->predicted->shared_ld_conflicts +
                                            ref->predicted->shared_st_conflicts);
    if (!g.bounded("shared_conflicts", "shared bank conflicts", conflicts, bound_kind::at_most,
                   model_conflicts, "sequential, predicted; counted per instruction"))
      g.advise(
          "Threads of a warp hit the same bank: with index = 2*s*tid the words are 2s "
          "apart. Let thread tid work on word tid and its partner tid + s.");
  } else {
    missing("shared_conflicts", "shared bank conflicts");
  }

  const auto ref_wf = sum_of(ref_counters, {"shared_ld_wavefronts", "shared_st_wavefronts"});
  if (wf && ref_wf) {
    if (!g.bounded("shared_wavefronts", "shared wavefronts", wf, bound_kind::at_most,
                   reduction_max_wavefront_share * *ref_wf,
                   formatted("%.2f x sequential's %.0f", reduction_max_wavefront_share, *ref_wf)))
      g.advise(
          "Each shared access serves few lanes: interleaved steps use 1 to 16 lanes of "
          "every warp, and a loop of one thread or of shared atomics reads shared memory "
          "once per element. Sequential addressing packs the active threads into whole "
          "warps.");
  } else {
    missing("shared_wavefronts", "shared wavefronts");
  }

  const auto writes = sum_of(ex.counters, {"st_requests", red_requests, atom_requests});
  if (writes && blocks && *blocks > 0) {
    // One a block of the tree, and one more where a second pass finishes the sum on the GPU.
    if (!g.bounded("global_writes", "global writes", writes, bound_kind::at_most, *blocks + 1,
                   formatted("one a block of sequential's, one to finish; stores, reductions "
                             "and atomics: %.2f a block",
                             *writes / *blocks)))
      g.advise(
          "The block's values meet in global memory, through atomics, instead of in a tree: "
          "add them in shared memory (or with __shfl_down_sync within a warp) and let one "
          "thread write the block's partial sum.");
  } else {
    missing("global_writes", "global writes a block");
  }

  if (timed_under_tracer(ex)) {
    g.line("bandwidth", false,
           "bandwidth n/a: timed under the memory tracer, which slows every kernel");
    g.advise(
        "The bandwidth line needs a run without the tracer: hardware counters (cudalab "
        "doctor).");
  } else if (ref && ex.gbps > 0 && ref->gbps > 0) {
    if (!g.bounded("bandwidth", "bandwidth", ex.gbps, bound_kind::at_least,
                   reduction_min_bandwidth_share * ref->gbps,
                   formatted("%.2f x sequential's %.1f GB/s, timed in this run",
                             reduction_min_bandwidth_share, ref->gbps),
                   "%.1f GB/s"))
      g.advise(
          "The kernel reads its input at less than a quarter of the speed of sequential "
          "addressing: each step of the tree should keep whole warps busy and let the "
          "others retire, and no thread should loop over a block's values alone.");
  } else {
    g.line("bandwidth", false, "bandwidth: n/a (no timing)");
    g.advise("The exercise and the reference must both be timed.");
  }
  return g.report();
}

std::vector<std::string> reduction_grade_metrics() {
  return {red_requests, atom_requests, blocks_launched, divergent_branches};
}

}  // namespace cudalab::labs
