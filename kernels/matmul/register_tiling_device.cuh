// Device helper of lab 08's kernels: a load slot of 4 floats, moved 16 bytes at a time when the
// matrix's rows are 16-byte aligned and 4 bytes at a time when not (register_tiling_index.cuh,
// rows_are_16_byte_aligned). Past the matrix a load reads 0: the edges are handled here, for any n.
// The kernels store C 4 bytes an output: n^2 stores against n^3 / (outputs a thread) loads, and one
// instruction an output keeps the store counts plain.
#pragma once

#include "matmul/matmul_index.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::matmul {

// Floats (row, col .. col + 3) of an n x n matrix. `wide`: one 16-byte load (n % 4 == 0, so the
// four are all inside or all outside); otherwise four guarded 4-byte loads.
__device__ inline float4 load_four(const float* m, std::size_t row, std::size_t col, unsigned n,
                                   bool wide) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (wide) {
    if (row < n && col < n) v = *reinterpret_cast<const float4*>(m + element_index(row, col, n));
    return v;
  }
  if (row < n) {
    if (col < n) v.x = m[element_index(row, col, n)];
    if (col + 1 < n) v.y = m[element_index(row, col + 1, n)];
    if (col + 2 < n) v.z = m[element_index(row, col + 2, n)];
    if (col + 3 < n) v.w = m[element_index(row, col + 3, n)];
  }
  return v;
}

}  // namespace cudalab::matmul
