// Lab 05-reduction: summing an array, from the textbook shared-memory tree to CUB.
//
// Variants (kernels in kernels/reduction/):
//   interleaved_divergent  naive    tid % (2s) == 0 as a real branch: warps diverge
//   interleaved_strided    naive    index = 2*s*tid: no divergence, bank conflicts
//   sequential             fixed    stride halves from blockDim/2; partial sums finished on the CPU
//   sequential_two_pass    fixed    the same, finished by a second GPU pass (one block)
//   first_add_during_load  fixed    two elements a thread while loading: half the blocks
//   warp_shuffle           fixed    last warp with __shfl_down_sync, no shared traffic there
//   grid_stride            fixed    bounded grid, float4 loads, one atomicAdd a block
//   grid_stride_int        fixed    the same on integers, checked exactly
//   cub                    baseline cub::DeviceReduce::Sum
//   cpu_reference          baseline the double CPU loop, timed (GPU vs CPU by array size)
//   exercise               exercise labs/05-reduction/exercise.cu (graded by `cudalab check 05`)
#include "reduction_lab.hpp"

#include "reduction_instruction_model.hpp"
#include "reduction_model.hpp"
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/metrics.hpp"
#include "cudalab/runner.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace cudalab::labs {
namespace {

using reduction_model::kernel;

constexpr const char* thread_efficiency = "smsp__average_thread_inst_executed_per_inst_executed.ratio";
constexpr const char* ld_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* st_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* ld_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* st_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";

std::vector<std::string> default_metrics() {
  std::vector<std::string> m = resolve_metrics("memory,shared,divergence");
  for (const char* needed : {thread_efficiency, ld_wavefronts, st_wavefronts, ld_conflicts, st_conflicts})
    if (std::find(m.begin(), m.end(), needed) == m.end()) m.emplace_back(needed);
  return m;
}

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[200];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

std::optional<double> sum_of(const counter_cell& cell, const char* a, const char* b) {
  const auto x = cell.get(a), y = cell.get(b);
  if (!x || !y) return std::nullopt;
  return *x + *y;
}

// The checker: correct; threads per instruction within 5% of sequential
// addressing; bank conflicts no more than the conflict-free model plus the counters' phantom
// band (2% of wavefronts); and shared wavefronts no more than sequential addressing needs
// (+5%), so a kernel that keeps the interleaved pattern but lets nvcc predicate it (no
// divergence left, still 95 wavefronts a 256-thread block where 25 do) does not pass.
grade_report grade(const result_row& ex, const std::vector<result_row>& refs) {
  grade_report r;
  r.passed = true;
  std::vector<std::string> hints;
  auto line = [&](bool ok, const std::string& text, const std::string& hint) {
    r.lines.push_back(text + (ok ? "  ok" : "  FAIL"));
    if (!ok) {
      r.passed = false;
      hints.push_back(hint);
    }
  };
  line(ex.check.ok, "correct: " + ex.check.detail,
       "the block sums are wrong: every element of the block must be added exactly once, and "
       "each step must finish (__syncthreads) before the next reads its results");
  const result_row* ref = refs.empty() ? nullptr : &refs.front();
  const auto ex_eff = ex.counters.get(thread_efficiency);
  const auto ref_eff = ref ? ref->counters.get(thread_efficiency) : std::nullopt;
  if (ex_eff && ref_eff) {
    line(*ex_eff >= 0.95 * *ref_eff,
         fmt("threads per instruction %.2f >= 0.95 x %.2f (sequential) = %.2f", *ex_eff, *ref_eff, 0.95 * *ref_eff),
         "warps still diverge: with tid % (2*s) the active threads are spread over every warp. "
         "Keep them contiguous: for (s = blockDim.x / 2; s > 0; s >>= 1) if (tid < s) ...");
  } else {
    line(false, "threads per instruction: n/a (counter missing)", "run with counters (cudalab doctor)");
  }
  const auto wf = sum_of(ex.counters, ld_wavefronts, st_wavefronts);
  const auto conflicts = sum_of(ex.counters, ld_conflicts, st_conflicts);
  if (wf && conflicts) {
    double model_conflicts = 0;
    if (ref && ref->predicted)
      model_conflicts = static_cast<double>(ref->predicted->shared_ld_conflicts + ref->predicted->shared_st_conflicts);
    const double bound = model_conflicts + 0.02 * *wf;
    line(*conflicts <= bound,
         fmt("shared bank conflicts %.0f <= %.0f (conflict-free model) + 2%% of %.0f wavefronts", *conflicts,
             model_conflicts, *wf),
         "threads of a warp hit the same bank: with index = 2*s*tid the words are 2s apart. "
         "Let thread tid work on word tid and its partner tid + s");
  } else {
    line(false, "shared bank conflicts: n/a (counter missing)", "run with counters (cudalab doctor)");
  }
  const auto ref_wf = ref ? sum_of(ref->counters, ld_wavefronts, st_wavefronts) : std::nullopt;
  if (wf && ref_wf) {
    line(*wf <= 1.05 * *ref_wf,
         fmt("shared wavefronts %.0f <= 1.05 x %.0f (sequential)", *wf, *ref_wf),
         "each shared access serves few lanes: interleaved steps use 1 to 16 lanes of every "
         "warp. Sequential addressing packs the active threads into whole warps");
  } else {
    line(false, "shared wavefronts: n/a (counter missing)", "run with counters (cudalab doctor)");
  }
  for (const auto& h : hints) r.hint += (r.hint.empty() ? "" : "; ") + h;
  return r;
}

}  // namespace

lab make_lab_05_reduction() {
  lab l;
  l.id = "05-reduction";
  l.title = "Parallel reduction: divergence, bank conflicts, first add, shuffles, CUB";
  l.readme = "labs/05-reduction/README.md";
  l.default_size = std::size_t{1} << 24;
  l.max_size = reduction::max_elements;
  l.default_metrics = default_metrics();
  l.notes = [] {
    const auto p = reduction_model::predict_instructions(kernel::sequential, 256, 256);
    return p.counts ? std::vector<std::string>{}
                    : std::vector<std::string>{"no instruction predictions (thr/inst, uniform%): " +
                                               p.unavailable};
  };
  l.variants = {
      make_partials_variant({"interleaved_divergent", variant_role::naive,
                             "tid % (2*s) == 0: active threads spread over every warp, which diverges",
                             &reduction::launch_interleaved_divergent<float>, false, finish_on::cpu,
                             kernel::interleaved_divergent}),
      make_partials_variant({"interleaved_strided", variant_role::naive,
                             "index = 2*s*tid: no divergence, but words 2s apart collide in banks",
                             &reduction::launch_interleaved_strided<float>, false, finish_on::cpu,
                             kernel::interleaved_strided}),
      make_partials_variant({"sequential", variant_role::fixed,
                             "tid < s, partner tid + s: whole warps retire, no bank conflicts; CPU adds the partials",
                             &reduction::launch_sequential<float>, false, finish_on::cpu, kernel::sequential}),
      make_partials_variant({"sequential_two_pass", variant_role::fixed,
                             "sequential, then one 1024-thread block sums the partials on the GPU",
                             &reduction::launch_sequential<float>, false, finish_on::gpu, kernel::sequential}),
      make_partials_variant({"first_add_during_load", variant_role::fixed,
                             "each thread adds two elements while loading: half the blocks, no idle first step",
                             &reduction::launch_first_add<float>, true, finish_on::cpu, kernel::first_add}),
      make_partials_variant({"warp_shuffle", variant_role::fixed,
                             "the last 32 values fold in registers with __shfl_down_sync",
                             &reduction::launch_warp_shuffle<float>, true, finish_on::cpu, kernel::warp_shuffle}),
      make_grid_stride_variant("grid_stride", false,
                               "bounded grid, float4 loads, many elements a thread, one atomicAdd a block"),
      make_grid_stride_variant("grid_stride_int", true, "grid_stride on integers, checked exactly"),
      make_cub_variant(),
      make_cpu_reference_variant(),
      make_reduction_exercise_variant(),
  };
  exercise_spec ex;
  ex.variant = "exercise";
  ex.file = "labs/05-reduction/exercise.cu";
  ex.reference_variants = {"sequential"};
  ex.size = std::size_t{1} << 22;
  ex.grade = grade;
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
