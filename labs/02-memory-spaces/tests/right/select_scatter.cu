// A right way to do lab 02's exercise, kept as a test input for the grader: the array stays, but
// no index of it is known only at run time. Step k's value goes to word spill_slot(k, step) by
// visiting every word j, a compile-time constant once unrolled, and keeping the value where
// j equals the slot (a select, not an address): the 16 words live in registers, so the kernel
// has no local load or store, and the sum is the exercise's, term by term. It costs 256 selects
// a thread where the solution moves the slot into the weight; the grader must pass it all the
// same, as it checks memory, not the route to it.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void select_scatter_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = memory::element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float v[memory::spill_words];
#pragma unroll
  for (unsigned j = 0; j < memory::spill_words; ++j) v[j] = 0.0f;
#pragma unroll
  for (unsigned k = 0; k < memory::spill_words; ++k) {
    const unsigned slot = memory::spill_slot(k, step);
    const float value = memory::spill_value(xi, k);
#pragma unroll
    for (unsigned j = 0; j < memory::spill_words; ++j) v[j] = slot == j ? value : v[j];
  }
  float acc = 0.0f;
#pragma unroll
  for (unsigned j = 0; j < memory::spill_words; ++j)
    acc = fmaf(static_cast<float>(j + 1), v[j], acc);
  out[i] = acc;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_MEMORY_WAY(select_scatter_kernel,
                   "right way: each step's value selected into every word, no run-time index")
