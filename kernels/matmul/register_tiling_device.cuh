// Device helpers of lab 08's kernels: a load slot of 4 floats, moved 16 bytes at a time when the
// matrix's rows are 16-byte aligned and 4 bytes at a time when not (register_tiling_index.cuh,
// rows_are_16_byte_aligned), into registers (load_four) or straight into shared memory by
// cp.async (copy_four_async). Past the matrix a slot reads 0: the edges are handled here, for
// any n.
// The kernels store C 4 bytes an output: n^2 stores against n^3 / (outputs a thread) loads, and one
// instruction an output keeps the store counts plain.
#pragma once

#include "matmul/matmul_index.cuh"
#include "matmul/register_tiling_index.cuh"

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

// cp.async (PTX; LDGSTS in SASS): a copy from global to shared memory that passes through no
// register and that the thread does not wait for. Copies are gathered into groups
// (commit_copies); wait_copies<N> returns once at most N of this thread's groups are still in
// flight. Only the issuing thread waits: the others see the data after a __syncthreads().
//
// A copy is made only by the lanes whose `copy` is true. Before every LDGSTS the compiler places
// three LDS predicated off for every thread (`@!PT LDS RZ, [RZ]`, sm_80 on), which
// smsp__inst_executed_op_shared_ld counts each time a warp runs them. Written as a C++ `if`,
// some copies come out predicated (their three LDS then run in every warp) and others behind a
// branch (skipped by a warp with no copying lane); with the predicate inside the PTX, ptxas puts
// every one behind a branch (cuobjdump -sass, CUDA 13.0), so that a warp runs the three once for
// each LDGSTS it issues with an active lane: the rule the model counts (regtile_model.hpp).
// 16 bytes past L1 (.cg: the tiles are read from shared memory, L1 would keep a second copy).
__device__ inline void copy_16_async_if(bool copy, float* shared_to, const float* global_from) {
  const auto to = static_cast<unsigned>(__cvta_generic_to_shared(shared_to));
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n"
      " @p cp.async.cg.shared.global [%1], [%2], 16;\n}\n" ::"r"(static_cast<int>(copy)),
      "r"(to), "l"(global_from)
      : "memory");
}
// 4 bytes, through L1 (.ca: .cg copies 16 bytes only).
__device__ inline void copy_4_async_if(bool copy, float* shared_to, const float* global_from) {
  const auto to = static_cast<unsigned>(__cvta_generic_to_shared(shared_to));
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n"
      " @p cp.async.ca.shared.global [%1], [%2], 4;\n}\n" ::"r"(static_cast<int>(copy)),
      "r"(to), "l"(global_from)
      : "memory");
}
__device__ inline void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <unsigned N>
__device__ inline void wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// load_four's slot, copied by cp.async into the 4 consecutive shared floats at `to` (16-byte
// aligned when `wide`): one 16-byte copy, or four 4-byte ones. A float past the matrix is set to
// 0 by an ordinary shared store instead, so that a lane outside the matrix asks global memory
// for nothing (a cp.async can zero-fill, but the L1 may still count the lane that asks for 0
// bytes; the model would have to guess). Such a lane's copy is given the matrix's first float as
// its (unread) source, so that no address past the matrix is formed.
__device__ inline void copy_four_async(float* to, const float* m, std::size_t row, std::size_t col,
                                       unsigned n, bool wide) {
  if (wide) {
    const bool inside = row < n && col < n;
    copy_16_async_if(inside, to, inside ? m + element_index(row, col, n) : m);
    if (!inside) *reinterpret_cast<float4*>(to) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    return;
  }
#pragma unroll
  for (unsigned q = 0; q < 4; ++q) {
    const bool inside = row < n && col + q < n;
    copy_4_async_if(inside, to + q, inside ? m + element_index(row, col + q, n) : m);
    if (!inside) to[q] = 0.0f;
  }
}

// One column k of a warp tile's product, the inner loop of warp_tiled and cp_async_pipeline
// (they differ in how the tiles reach shared memory, and the pipeline may pad the A tile's
// columns: APitch words a column, pipeline_a_word): the thread's A values of column k (16-byte
// reads of the transposed A tile), its B values of row k (the B tile starts APitch BK words
// on), then their outer product into acc.
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned WM_ITER,
          unsigned WN_ITER, unsigned TM, unsigned TN, unsigned APitch = BM>
__device__ __forceinline__ void warp_tile_column(const float* tiles, unsigned t, unsigned k,
                                                 float (&a_reg)[WM_ITER * TM],
                                                 float (&b_reg)[WN_ITER * TN],
                                                 float (&acc)[WM_ITER * TM][WN_ITER * TN]) {
#pragma unroll
  for (unsigned mi = 0; mi < WM_ITER; ++mi)
#pragma unroll
    for (unsigned i = 0; i < TM; i += 4) {
      const unsigned r = warp_tile_row(t, BN, WM, WN, WM_ITER, WN_ITER, TM, TN, mi, i);
      const float4 v = *reinterpret_cast<const float4*>(&tiles[a_word(r, k, APitch, BK, true)]);
      float* dst = &a_reg[mi * TM + i];
      dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
    }
#pragma unroll
  for (unsigned ni = 0; ni < WN_ITER; ++ni)
#pragma unroll
    for (unsigned j = 0; j < TN; j += 4) {
      const unsigned cc = warp_tile_col(t, BN, WN, WN_ITER, TN, ni, j);
      const float4 v = *reinterpret_cast<const float4*>(&tiles[b_word(k, cc, APitch, BN, BK)]);
      float* dst = &b_reg[ni * TN + j];
      dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
    }
#pragma unroll
  for (unsigned i = 0; i < WM_ITER * TM; ++i)
#pragma unroll
    for (unsigned j = 0; j < WN_ITER * TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
}

}  // namespace cudalab::matmul
