// Lab 02 coefficient kernels: one polynomial a thread, its coefficients in four memory spaces.
//
//   coeffs_global_kernel       coefficients from global memory: 16 LDG a warp, each lane the
//                              same address (1 sector a request), all through L1.
//   coeffs_constant_kernel     c_coefficients[k] at a fixed k: 8 ULDC.64 read the 16
//                              coefficients through the constant cache into uniform registers,
//                              which the FFMAs take; no global load instruction.
//   constant_divergent_kernel  the coefficient set depends on the lane: the address is in a
//                              register, so each coefficient is an LDC, which the indexed
//                              constant cache serves one distinct address at a time (32 passes
//                              for a warp of 32 sets).
//   coeffs_shared_kernel       16 threads copy the coefficients into shared memory, then every
//                              lane reads the same shared word (a broadcast).
#include "memory/memory_index.cuh"
#include "memory/memory_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::memory {

__constant__ float c_coefficients[constant_table_floats];

__global__ void coeffs_global_kernel(const float* x, const float* coeffs, float* out,
                                     std::size_t n) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float acc = 0.0f;
#pragma unroll
  for (int k = poly_terms - 1; k >= 0; --k) acc = fmaf(acc, xi, coeffs[coefficient_index(0, k)]);
  out[i] = acc;
}

__global__ void coeffs_constant_kernel(const float* x, float* out, std::size_t n) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float acc = 0.0f;
#pragma unroll
  for (int k = poly_terms - 1; k >= 0; --k)
    acc = fmaf(acc, xi, c_coefficients[coefficient_index(0, k)]);
  out[i] = acc;
}

__global__ void constant_divergent_kernel(const float* x, float* out, std::size_t n) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  const unsigned set = coefficient_set(i, true);
  float acc = 0.0f;
#pragma unroll
  for (int k = poly_terms - 1; k >= 0; --k)
    acc = fmaf(acc, xi, c_coefficients[coefficient_index(set, k)]);
  out[i] = acc;
}

__global__ void coeffs_shared_kernel(const float* x, const float* coeffs, float* out,
                                     std::size_t n) {
  __shared__ float shared_coefficients[poly_terms];
  if (threadIdx.x < poly_terms)
    shared_coefficients[threadIdx.x] = coeffs[coefficient_index(0, threadIdx.x)];
  __syncthreads();
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i >= n) return;
  const float xi = x[i];
  float acc = 0.0f;
#pragma unroll
  for (int k = poly_terms - 1; k >= 0; --k) acc = fmaf(acc, xi, shared_coefficients[k]);
  out[i] = acc;
}

void upload_constant_coefficients(const float* host_table, cudaStream_t stream) {
  CUDALAB_CHECK_CUDA(cudaMemcpyToSymbolAsync(c_coefficients, host_table,
                                             sizeof(float) * constant_table_floats, 0,
                                             cudaMemcpyHostToDevice, stream));
}

launch_dims launch_coeffs_global(const float* x, const float* coeffs, float* out, std::size_t n,
                                 unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  coeffs_global_kernel<<<d.grid, d.block, 0, stream>>>(x, coeffs, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_coeffs_constant(const float* x, float* out, std::size_t n, unsigned block,
                                   cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  coeffs_constant_kernel<<<d.grid, d.block, 0, stream>>>(x, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_constant_divergent(const float* x, float* out, std::size_t n, unsigned block,
                                      cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  constant_divergent_kernel<<<d.grid, d.block, 0, stream>>>(x, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_coeffs_shared(const float* x, const float* coeffs, float* out, std::size_t n,
                                 unsigned block, cudaStream_t stream) {
  if (block < poly_terms)
    throw usage_error("coeffs_shared needs at least " + std::to_string(poly_terms) +
                      " threads a block: one to copy each coefficient");
  const launch_dims d = one_thread_each(n, block);
  coeffs_shared_kernel<<<d.grid, d.block, 0, stream>>>(x, coeffs, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::memory
