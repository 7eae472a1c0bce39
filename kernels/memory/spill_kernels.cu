// Lab 02 local-memory kernels: the same weighted sum through a per-thread array.
//
//   local_spill_kernel  v[spill_slot(k, step)] = spill_value(x, k): the store's index is known
//                       only at run time, so v cannot live in registers (a register has no
//                       address). The compiler places v in local memory: 16 STL a thread, then
//                       the loads of the sum as LDL (cuobjdump -sass shows both; the lab's
//                       README lists them).
//   registers_kernel    sum_k (spill_slot(k, step) + 1) spill_value(x, k): the same terms, in
//                       the order the steps produce them; no array, no local memory.
#include "memory/memory_index.cuh"
#include "memory/memory_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::memory {

__global__ void local_spill_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float v[spill_words];
#pragma unroll
  for (unsigned k = 0; k < spill_words; ++k) v[spill_slot(k, step)] = spill_value(xi, k);
  float acc = 0.0f;
#pragma unroll
  for (unsigned j = 0; j < spill_words; ++j) acc = fmaf(static_cast<float>(j + 1), v[j], acc);
  out[i] = acc;
}

__global__ void registers_kernel(const float* x, float* out, std::size_t n, unsigned step) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float acc = 0.0f;
#pragma unroll
  for (unsigned k = 0; k < spill_words; ++k)
    acc = fmaf(static_cast<float>(spill_slot(k, step) + 1), spill_value(xi, k), acc);
  out[i] = acc;
}

namespace {

void check_step(unsigned step) {
  if (step % 2 == 0)
    throw usage_error("spill step " + std::to_string(step) +
                      " is even: an odd step makes spill_slot a permutation");
}

}  // namespace

launch_dims launch_local_spill(const float* x, float* out, std::size_t n, unsigned step,
                               unsigned block, cudaStream_t stream) {
  check_step(step);
  const launch_dims d = one_thread_each(n, block);
  local_spill_kernel<<<d.grid, d.block, 0, stream>>>(x, out, n, step);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_registers(const float* x, float* out, std::size_t n, unsigned step,
                             unsigned block, cudaStream_t stream) {
  check_step(step);
  const launch_dims d = one_thread_each(n, block);
  registers_kernel<<<d.grid, d.block, 0, stream>>>(x, out, n, step);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::memory
