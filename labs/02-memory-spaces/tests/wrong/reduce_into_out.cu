// A wrong way to do lab 02's exercise, kept as a test input for the grader: no array at all, but
// each of the sixteen terms is added to out[i] by a global atomic (atomicAdd with its result
// unused: REDG in the SASS). The sums are right and the local counters read zero; the load and
// store sectors are the registers kernel's (x read once, out stored once), because reductions
// are counted apart from loads and stores. The grader fails it on the line that counts the
// other memory paths: sixteen global reductions a thread where the registers kernel has none.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void reduce_into_out_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = memory::element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  out[i] = 0.0f;
#pragma unroll
  for (unsigned k = 0; k < memory::spill_words; ++k)
    atomicAdd(out + i,
              static_cast<float>(memory::spill_slot(k, step) + 1) * memory::spill_value(xi, k));
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_MEMORY_WAY(reduce_into_out_kernel, "wrong way: the terms added to out by global atomics")
