// Lab 02 exercise: take the array out of local memory.
//
// spill_exercise_kernel computes, for every element, out[i] = sum_j (j + 1) v[j], where step k of
// the first loop stores spill_value(x[i], k) in v[spill_slot(k, step)] (kernels/memory/
// memory_index.cuh). The store's index is known only at run time, and a register has no address:
// the compiler puts v in local memory, 16 STL and 4 LDL.128 a thread. See them with
//   scripts/cuobjdump.sh -sass build/release/labs/02-memory-spaces/libcudalab_lab02.a |
//     grep -E "STL|LDL"
//
// YOUR TASK: compute the same sum with no local memory.
//   - Keep the launch (one thread an element) and the output.
//   - Every array index must be a compile-time constant after unrolling, or use no array at all:
//     the run-time part, spill_slot(k, step), can move from the index into the values.
//   - Hint: sum_j (j + 1) v[j] visits each step's value once, at j = spill_slot(k, step).
//
// Build (cmake --build build/release), then:
//   build/release/tools/cudalab/cudalab run 02 --variant exercise,local_spill,registers
//   build/release/tools/cudalab/cudalab check 02
// `check` runs your kernel with hardware counters and passes it when its sums are right, its
// local-memory load and store sectors are no more than the registers kernel's (none), its global
// sectors no more than reading x and writing the sums once, it takes no other memory path (atomics,
// reductions, texture, surfaces, generic LD/ST, TMA, shared atomics, matrix loads and stores,
// another block's shared memory, and in this lab shared memory itself), and its launch runs only
// your own kernels (no library's) and no cudaMemcpy or cudaMemset.
#include "memory_lab.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {

__global__ void spill_exercise_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = memory::element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float v[memory::spill_words];
#pragma unroll
  for (unsigned k = 0; k < memory::spill_words; ++k)
    v[memory::spill_slot(k, step)] = memory::spill_value(xi, k);
  float acc = 0.0f;
#pragma unroll
  for (unsigned j = 0; j < memory::spill_words; ++j)
    acc = fmaf(static_cast<float>(j + 1), v[j], acc);
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
                                     "your sum (labs/02-memory-spaces/exercise.cu)",
                                     launch_exercise, memory_output::spill_sum, std::nullopt});
}

}  // namespace cudalab::labs
