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
#include <string>

namespace cudalab::labs {
namespace {

using reduction_model::kernel;

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
      make_partials_variant(
          {"interleaved_divergent", variant_role::naive,
           "tid % (2*s) == 0: active threads spread over every warp, which diverges",
           &reduction::launch_interleaved_divergent<float>, false, finish_on::cpu,
           kernel::interleaved_divergent}),
      make_partials_variant({"interleaved_strided", variant_role::naive,
                             "index = 2*s*tid: no divergence, but words 2s apart collide in banks",
                             &reduction::launch_interleaved_strided<float>, false, finish_on::cpu,
                             kernel::interleaved_strided}),
      make_partials_variant(
          {"sequential", variant_role::fixed,
           "tid < s, partner tid + s: whole warps retire, no bank conflicts; CPU adds the partials",
           &reduction::launch_sequential<float>, false, finish_on::cpu, kernel::sequential}),
      make_partials_variant({"sequential_two_pass", variant_role::fixed,
                             "sequential, then one 1024-thread block sums the partials on the GPU",
                             &reduction::launch_sequential<float>, false, finish_on::gpu,
                             kernel::sequential}),
      make_partials_variant(
          {"first_add_during_load", variant_role::fixed,
           "each thread adds two elements while loading: half the blocks, no idle first step",
           &reduction::launch_first_add<float>, true, finish_on::cpu, kernel::first_add}),
      make_partials_variant({"warp_shuffle", variant_role::fixed,
                             "the last 32 values fold in registers with __shfl_down_sync",
                             &reduction::launch_warp_shuffle<float>, true, finish_on::cpu,
                             kernel::warp_shuffle}),
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
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
