// Lab 02 launchers: each checks its launch shape (1..1024 threads a block, at least one element,
// a grid that fits), launches on `stream` and checks the launch (CUDALAB_CHECK_LAUNCH).
//
// The coefficient kernels evaluate out[i] = sum_k c[k] x[i]^k (poly_terms coefficients, Horner)
// with the coefficients in a different memory space each. The spill kernels compute
// out[i] = sum_j (j + 1) v[j], where step k stores spill_value(x[i], k) in v[spill_slot(k, step)]:
// once through a per-thread array the compiler must place in local memory, once in registers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cudalab::memory {

struct launch_dims {
  unsigned grid = 0;
  unsigned block = 0;
};

// The shape of a launch with one thread per element; throws cudalab::usage_error when it cannot
// run.
launch_dims one_thread_each(std::size_t n, unsigned block);

// Copies constant_table_floats coefficients (host memory) into the constant bank the constant
// kernels read.
void upload_constant_coefficients(const float* host_table, cudaStream_t stream);

// NAIVE: the coefficients from global memory: every lane loads the same address, poly_terms
// one-sector requests a warp.
launch_dims launch_coeffs_global(const float* x, const float* coeffs, float* out, std::size_t n,
                                 unsigned block, cudaStream_t stream);
// FIXED: the coefficients from __constant__ at fixed indices: read through the constant cache
// by uniform loads (ULDC.64) into uniform registers that the multiply-adds take; no global load.
launch_dims launch_coeffs_constant(const float* x, float* out, std::size_t n, unsigned block,
                                   cudaStream_t stream);
// NAIVE: each lane reads its own coefficient set (coefficient_set(i, true)) from __constant__:
// the indexed constant cache serves a warp's distinct addresses one after another.
launch_dims launch_constant_divergent(const float* x, float* out, std::size_t n, unsigned block,
                                      cudaStream_t stream);
// FIXED: the block copies the coefficients into shared memory once (block >= poly_terms), then
// every lane reads them there (a broadcast).
launch_dims launch_coeffs_shared(const float* x, const float* coeffs, float* out, std::size_t n,
                                 unsigned block, cudaStream_t stream);

// NAIVE: the per-thread array indexed at run time: local memory (STL/LDL). `step` must be odd.
launch_dims launch_local_spill(const float* x, float* out, std::size_t n, unsigned step,
                               unsigned block, cudaStream_t stream);
// FIXED: the same sum with the array's index known at compile time and the run-time part moved
// into the weights: registers only.
launch_dims launch_registers(const float* x, float* out, std::size_t n, unsigned step,
                             unsigned block, cudaStream_t stream);

}  // namespace cudalab::memory
