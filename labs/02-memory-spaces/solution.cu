// Lab 02 solution: the same sum in registers.
//
// sum_j (j + 1) v[j] adds each step's value once, with the weight of the word it was stored in:
// step k contributes (spill_slot(k, step) + 1) spill_value(x, k). Written that way the loop index
// k is the only index, a compile-time constant once unrolled, and the run-time step only changes
// a weight: no array, no local memory (cuobjdump -sass shows no STL or LDL).
#include "memory_lab.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {

__global__ void spill_exercise_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = memory::element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float acc = 0.0f;
#pragma unroll
  for (unsigned k = 0; k < memory::spill_words; ++k)
    acc =
        fmaf(static_cast<float>(memory::spill_slot(k, step) + 1), memory::spill_value(xi, k), acc);
  out[i] = acc;
}

namespace {

memory::launch_dims launch_exercise(const float* x, const float*, float* out, std::size_t n,
                                    unsigned block, cudaStream_t stream) {
  const memory::launch_dims d = memory::one_thread_each(n, block);
  spill_exercise_kernel<<<d.grid, d.block, 0, stream>>>(x, out, n, spill_step);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_memory_exercise_variant() {
  return make_memory_kernel_variant({"exercise", variant_role::exercise,
                                     "the reference solution (labs/02-memory-spaces/solution.cu)",
                                     launch_exercise, memory_output::spill_sum, std::nullopt});
}

}  // namespace cudalab::labs
