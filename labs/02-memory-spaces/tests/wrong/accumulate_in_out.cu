// A wrong way to do lab 02's exercise, kept as a test input for the grader: the array is gone
// from local memory, but the sum is accumulated in the output itself (out[i] += ... sixteen
// times through a volatile pointer, so every step is a global load and store). The sums are
// right and the local counters read zero; the global traffic is 17 stores and 16 loads of out a
// thread instead of one store. The grader fails it on global sectors.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void accumulate_in_out_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = memory::element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  volatile float* sum = out + i;
  *sum = 0.0f;
#pragma unroll
  for (unsigned k = 0; k < memory::spill_words; ++k)
    *sum =
        fmaf(static_cast<float>(memory::spill_slot(k, step) + 1), memory::spill_value(xi, k), *sum);
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_MEMORY_WAY(accumulate_in_out_kernel,
                   "wrong way: the sum accumulated in out (global memory)")
