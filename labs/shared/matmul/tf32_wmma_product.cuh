// The product on the tensor cores, for the matrix-product labs' wrong ways (lab 03's and lab
// 08's tests/wrong/tensor_cores.cu): each warp computes a 16 x 16 tile of C with wmma's TF32
// multiply-accumulate (m16n16k8), its operands staged in shared memory with zeros past an odd
// n. TF32's 10-bit mantissa still meets the labs' FP32 tolerance, the operands are staged in
// tiles like the lessons' and the tensor cores are fast: the multiply-adds are HMMA
// instructions, not the FFMAs the lessons are about, and only a line that counts instructions
// by class tells them apart. Included by one file of a binary: the kernel is that file's own.
#pragma once

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

#include <mma.h>

namespace cudalab::matmul {
namespace {

constexpr unsigned wmma_side = 16;  // the tile of C a warp computes
constexpr unsigned wmma_depth = 8;  // the k step of one TF32 multiply-accumulate

__global__ void tf32_wmma_kernel(const float* a, const float* b, float* c, unsigned n) {
  namespace wmma = nvcuda::wmma;
  constexpr unsigned side = wmma_side, depth = wmma_depth;
  __shared__ float a_tile[side][depth];
  __shared__ float b_tile[depth][side];
  __shared__ float c_tile[side][side];
  const unsigned lane = threadIdx.x;
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * side;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * side;
  wmma::fragment<wmma::accumulator, side, side, depth, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  for (std::size_t k0 = 0; k0 < n; k0 += depth) {
    for (unsigned e = lane; e < side * depth; e += 32) {
      const std::size_t ar = row0 + e / depth, ak = k0 + e % depth;
      a_tile[e / depth][e % depth] = ar < n && ak < n ? a[ar * n + ak] : 0.0f;
      const std::size_t bk = k0 + e / side, bc = col0 + e % side;
      b_tile[e / side][e % side] = bk < n && bc < n ? b[bk * n + bc] : 0.0f;
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, side, side, depth, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, side, side, depth, wmma::precision::tf32, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, &a_tile[0][0], depth);
    wmma::load_matrix_sync(fb, &b_tile[0][0], side);
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(sum, fa, fb, sum);
    __syncwarp();
  }
  wmma::store_matrix_sync(&c_tile[0][0], sum, side, wmma::mem_row_major);
  __syncwarp();
  for (unsigned e = lane; e < side * side; e += 32) {
    const std::size_t r = row0 + e / side, col = col0 + e % side;
    if (r < n && col < n) c[r * n + col] = c_tile[e / side][e % side];
  }
}

// A warp a 16 x 16 tile of C; the labs' tile parameter is ignored.
launch_dims launch_tf32_wmma_product(const float* a, const float* b, float* c, std::size_t n,
                                     unsigned, cudaStream_t stream) {
  check_side(n);
  const auto tiles = static_cast<unsigned>((n + wmma_side - 1) / wmma_side);
  const launch_dims d{dim3(tiles, tiles), dim3(32)};
  tf32_wmma_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace
}  // namespace cudalab::matmul
