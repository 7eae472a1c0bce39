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

#include "reduction_grade.hpp"
#include "reduction_instruction_model.hpp"
#include "reduction_model.hpp"
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/runner.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cudalab::labs {
namespace {

using reduction_model::kernel;

// The launcher of the tree kernel `k`, which the model walks.
partials_launcher<float> tree_launcher(kernel k) {
  switch (k) {
    case kernel::interleaved_divergent:
      return &reduction::launch_interleaved_divergent<float>;
    case kernel::interleaved_strided:
      return &reduction::launch_interleaved_strided<float>;
    case kernel::sequential:
      return &reduction::launch_sequential<float>;
    case kernel::first_add:
      return &reduction::launch_first_add<float>;
    case kernel::warp_shuffle:
      return &reduction::launch_warp_shuffle<float>;
    case kernel::finish:
    case kernel::grid_stride:
      break;
  }
  throw std::logic_error("no tree launcher for this kernel");
}

// A tree kernel's variant: the launcher, and whether a thread adds two elements while loading,
// follow from the model's kernel `k`; the partial sums are finished on `finish`.
variant tree_variant(const variant_identity& identity, kernel k,
                     finish_on finish = finish_on::cpu) {
  partials_spec spec;
  static_cast<variant_identity&>(spec) = identity;
  spec.launch = tree_launcher(k);
  spec.two_elements_a_thread = k == kernel::first_add || k == kernel::warp_shuffle;
  spec.finish = finish;
  spec.model = k;
  return make_partials_variant(spec);
}

}  // namespace

lab make_lab_05_reduction() {
  lab l = new_lab("05-reduction",
                  "Parallel reduction: divergence, bank conflicts, first add, shuffles, CUB",
                  "elements", {std::size_t{1} << 24, reduction::max_elements});
  l.headline_metrics = {"thread_efficiency", "shared_conflicts", "dram_per_ideal"};
  l.default_metrics = {"memory", "shared", "divergence"};
  l.notes = [] {
    const auto p = reduction_model::predict_instructions(kernel::sequential, 256, 256);
    return p.counts ? std::vector<std::string>{}
                    : std::vector<std::string>{"no instruction predictions (thr/inst, uniform%): " +
                                               p.unavailable};
  };
  l.variants = {
      tree_variant({"interleaved_divergent", variant_role::naive,
                    "tid % (2*s) == 0: active threads spread over every warp, which diverges"},
                   kernel::interleaved_divergent),
      tree_variant({"interleaved_strided", variant_role::naive,
                    "index = 2*s*tid: no divergence, but words 2s apart collide in banks"},
                   kernel::interleaved_strided),
      tree_variant({"sequential", variant_role::fixed,
                    "tid < s, partner tid + s: whole warps retire, no bank conflicts; CPU adds the "
                    "partials"},
                   kernel::sequential),
      tree_variant({"sequential_two_pass", variant_role::fixed,
                    "sequential, then one 1024-thread block sums the partials on the GPU"},
                   kernel::sequential, finish_on::gpu),
      tree_variant(
          {"first_add_during_load", variant_role::fixed,
           "each thread adds two elements while loading: half the blocks, no idle first step"},
          kernel::first_add),
      tree_variant({"warp_shuffle", variant_role::fixed,
                    "the last 32 values fold in registers with __shfl_down_sync"},
                   kernel::warp_shuffle),
      make_grid_stride_variant(
          "grid_stride", false,
          "bounded grid, float4 loads, many elements a thread, one atomicAdd a block"),
      make_grid_stride_variant("grid_stride_int", true, "grid_stride on integers, checked exactly"),
      make_cub_variant(),
      make_cpu_reference_variant(),
      make_reduction_exercise_variant(),
  };
  exercise_spec ex = new_exercise(l.id, std::size_t{1} << 22, grade_reduction);
  ex.reference_variants = {"sequential"};
  ex.extra_metrics = reduction_grade_metrics();
  ex.untouched_fails_on = {"divergent_branches", "shared_wavefronts"};
  ex.wrong_ways = {
      {"atomic_block_sum", "global_writes", "8 REDG and a store a block, no tree"},
      {"warp_atomic_sum", "global_writes", "a REDG a warp after a shuffle, no block tree"},
      {"shared_atomic_sum", "shared_wavefronts", "a compare-and-swap loop on one shared word"},
      {"diluted_grid_atomics", "global_writes", "atomics spread over eight times the blocks"},
      {"cub_segmented_reduce", "kernels", "cub::DeviceSegmentedReduce: a library's kernel"}};
  ex.right_ways = {
      {"noinline_step", "", "sequential addressing, each step in a __noinline__ helper"},
      {"warp_shuffle_tree", "", "a shuffle tree a warp, then one over the warps' sums"},
      {"cub_block_reduce", "", "cub::BlockReduce inside the learner's own kernel"}};
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
