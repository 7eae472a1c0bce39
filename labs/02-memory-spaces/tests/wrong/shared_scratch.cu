// A wrong way to do lab 02's exercise, kept as a test input for the grader: the sixteen-word array
// is still indexed at run time, but lives in shared memory, a column of the block's scratch a
// thread, instead of local memory. The local counters read zero and the global sectors are the
// registers kernel's; the array still goes out to memory and back, sixteen stores and sixteen
// loads a thread, where the lesson keeps it in registers. The grader fails it on the line that
// counts the other memory paths, which for this lab counts shared memory too.
#include "memory_lab.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

__global__ void shared_scratch_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  extern __shared__ float scratch[];  // spill_words rows of blockDim.x: word k of thread t
  const std::size_t i = memory::element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float* mine = scratch + threadIdx.x;
  for (unsigned k = 0; k < memory::spill_words; ++k)
    mine[memory::spill_slot(k, step) * blockDim.x] =
        static_cast<float>(memory::spill_slot(k, step) + 1) * memory::spill_value(xi, k);
  float acc = 0.0f;
  for (unsigned k = 0; k < memory::spill_words; ++k) acc += mine[k * blockDim.x];
  out[i] = acc;
}

memory::launch_dims launch_exercise(const float* x, const float*, float* out, std::size_t n,
                                    unsigned block, cudaStream_t stream) {
  const memory::launch_dims d = memory::one_thread_each(n, block);
  const std::size_t bytes = sizeof(float) * memory::spill_words * block;
  CUDALAB_CHECK_CUDA(cudaFuncSetAttribute(
      shared_scratch_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  shared_scratch_kernel<<<d.grid, d.block, bytes, stream>>>(x, out, n, spill_step);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_memory_exercise_variant() {
  return make_memory_kernel_variant({"exercise", variant_role::exercise,
                                     "wrong way: the array in shared memory", launch_exercise,
                                     memory_output::spill_sum, std::nullopt});
}

}  // namespace cudalab::labs
