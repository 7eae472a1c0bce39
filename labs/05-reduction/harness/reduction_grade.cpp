// `cudalab check 05-reduction`: grades the learner's block-sum kernel by its counters and its
// speed, measured beside the `sequential` reference at the same size.
//
// Each line stops one way of getting the right sums without the lesson:
//   - a divergent tree (tid % (2*s)) runs few threads per instruction and many wavefronts;
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

#include <cstdio>
#include <optional>

namespace cudalab::labs {
namespace {

// Catalogue short names (metrics.hpp).
constexpr const char* red_requests = "red_requests";
constexpr const char* atom_requests = "atom_requests";
constexpr const char* blocks_launched = "blocks_launched";

std::optional<double> sum_of(const counter_cell& cell, std::initializer_list<const char*> metrics) {
  double total = 0;
  for (const char* m : metrics) {
    const auto v = cell.get(m);
    if (!v) return std::nullopt;
    total += *v;
  }
  return total;
}

class report_builder {
 public:
  void line(bool ok, const std::string& text, const std::string& hint) {
    m_report.lines.push_back(text + (ok ? "  ok" : "  FAIL"));
    if (!ok) add_hint(hint);
  }
  void missing(const std::string& what) {
    line(false, what + ": n/a (counter missing)",
         "grading needs hardware counters (cudalab doctor)");
  }
  grade_report finish() {
    m_report.passed = m_failed == 0;
    return m_report;
  }

 private:
  void add_hint(const std::string& hint) {
    ++m_failed;
    if (m_report.hint.find(hint) == std::string::npos)
      m_report.hint += (m_report.hint.empty() ? "" : "; ") + hint;
  }
  grade_report m_report;
  int m_failed = 0;
};

}  // namespace

grade_report grade_reduction(const result_row& ex, const std::vector<result_row>& refs) {
  report_builder r;
  const result_row* ref = refs.empty() ? nullptr : &refs.front();
  const counter_cell no_counters;
  const counter_cell& ref_counters = ref ? ref->counters : no_counters;

  r.line(ex.verification.ok, "correct: " + ex.verification.detail,
         "the block sums are wrong: every element of the block must be added exactly once, and "
         "each step must finish (__syncthreads) before the next reads its results");

  const auto ex_eff = ex.counters.get("thread_efficiency");
  const auto ref_eff = ref_counters.get("thread_efficiency");
  if (ex_eff && ref_eff) {
    const double need = reduction_min_thread_efficiency_share * *ref_eff;
    r.line(*ex_eff >= need,
           formatted("threads per instruction %.2f >= %.2f x %.2f (sequential) = %.2f", *ex_eff,
                     reduction_min_thread_efficiency_share, *ref_eff, need),
           "warps diverge or few threads do the work: with tid % (2*s) the active threads are "
           "spread over every warp. Keep them contiguous: for (s = blockDim.x / 2; s > 0; "
           "s >>= 1) if (tid < s) ...");
  } else {
    r.missing("threads per instruction");
  }

  const auto wf = sum_of(ex.counters, {"shared_ld_wavefronts", "shared_st_wavefronts"});
  const auto conflicts = sum_of(ex.counters, {"shared_ld_conflicts", "shared_st_conflicts"});
  if (conflicts) {
    double model_conflicts = 0;
    if (ref && ref->predicted)
      model_conflicts = static_cast<double>(ref->predicted->shared_ld_conflicts +
                                            ref->predicted->shared_st_conflicts);
    r.line(*conflicts <= model_conflicts,
           formatted("shared bank conflicts %.0f <= %.0f (sequential, predicted; counted per "
                     "instruction)",
                     *conflicts, model_conflicts),
           "threads of a warp hit the same bank: with index = 2*s*tid the words are 2s apart. "
           "Let thread tid work on word tid and its partner tid + s");
  } else {
    r.missing("shared bank conflicts");
  }

  const auto ref_wf = sum_of(ref_counters, {"shared_ld_wavefronts", "shared_st_wavefronts"});
  if (wf && ref_wf) {
    r.line(*wf <= reduction_max_wavefront_share * *ref_wf,
           formatted("shared wavefronts %.0f <= %.2f x %.0f (sequential)", *wf,
                     reduction_max_wavefront_share, *ref_wf),
           "each shared access serves few lanes: interleaved steps use 1 to 16 lanes of every "
           "warp, and a loop of one thread or of shared atomics reads shared memory once per "
           "element. Sequential addressing packs the active threads into whole warps");
  } else {
    r.missing("shared wavefronts");
  }

  const auto writes = sum_of(ex.counters, {"st_requests", red_requests, atom_requests});
  const auto blocks = ex.counters.get(blocks_launched);
  if (writes && blocks && *blocks > 0) {
    r.line(
        *writes <= *blocks,
        formatted("global writes %.0f <= %.0f blocks (stores, reductions and atomics: one a block; "
                  "%.2f a block)",
                  *writes, *blocks, *writes / *blocks),
        "the block's values meet in global memory, through atomics, instead of in a tree: "
        "add them in shared memory (or with __shfl_down_sync within a warp) and let one "
        "thread write the block's partial sum");
  } else {
    r.missing("global writes a block");
  }

  if (timed_under_tracer(ex)) {
    r.line(false, "bandwidth n/a: timed under the memory tracer, which slows every kernel",
           "the bandwidth line needs a run without the tracer: hardware counters (cudalab doctor)");
  } else if (ref && ex.gbps > 0 && ref->gbps > 0) {
    const double need = reduction_min_bandwidth_share * ref->gbps;
    r.line(ex.gbps >= need,
           formatted("bandwidth %.1f GB/s >= %.2f x %.1f GB/s (sequential) = %.1f GB/s", ex.gbps,
                     reduction_min_bandwidth_share, ref->gbps, need),
           "the kernel reads its input at less than half the speed of sequential addressing: "
           "each step of the tree should keep whole warps busy and let the others retire");
  } else {
    r.line(false, "bandwidth: n/a (no timing)",
           "the exercise and the reference must both be timed");
  }
  return r.finish();
}

std::vector<std::string> reduction_grade_metrics() {
  return {red_requests, atom_requests, blocks_launched};
}

}  // namespace cudalab::labs
