// The tiled products: a T x T block stages a T x T tile of A and one of B in shared memory,
// then every thread takes T products from the tiles. Each element loaded from global memory
// is used T times. Whole warps (T >= 8) issue n^3 / (16 T) load requests, T times fewer than the
// naive kernel; T = 4 issues half as many as it, T = 2 four times as many (lab 03's README).
#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::matmul {
namespace {

enum class edges { guarded, unguarded };
enum class store_at { end, every_step };

// The products of one tile step. The loop stays rolled (`unroll 1`): unrolled, nvcc merges
// four of the A tile's reads into one 16-byte LDS.128, served by half-warps (the measured rule
// in docs/counters.md); rolled, every shared read is one 4-byte LDS, the lesson's subject.
// Widening the reads is the subject of register tiling (lab 08).
template <unsigned T>
__device__ float tile_products(const float* a_tile, const float* b_tile, float sum) {
#pragma unroll 1
  for (unsigned k = 0; k < T; ++k)
    sum += a_tile[tile_word(threadIdx.y, k, T)] * b_tile[tile_word(k, threadIdx.x, T)];
  return sum;
}

template <unsigned T, edges E, store_at S>
__global__ void tiled_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float tiles[2 * T * T];
  float* a_tile = tiles;
  float* b_tile = tiles + b_tile_offset(T);
  const std::size_t row = output_row(blockIdx.y, T, threadIdx.y);
  const std::size_t col = output_col(blockIdx.x, T, threadIdx.x);
  const bool inside = row < n && col < n;
  const unsigned steps = tile_steps(n, T);
  float sum = 0.0f;
  for (unsigned t = 0; t < steps; ++t) {
    const std::size_t a_col = a_tile_col(t, T, threadIdx.x);
    const std::size_t b_row = b_tile_row(t, T, threadIdx.y);
    const unsigned word = tile_word(threadIdx.y, threadIdx.x, T);
    if (E == edges::guarded) {
      // Past the matrix the tile holds 0, which adds nothing to the products.
      a_tile[word] = row < n && a_col < n ? a[element_index(row, a_col, n)] : 0.0f;
      b_tile[word] = b_row < n && col < n ? b[element_index(b_row, col, n)] : 0.0f;
    } else {
      a_tile[word] = a[element_index(row, a_col, n)];
      b_tile[word] = b[element_index(b_row, col, n)];
    }
    __syncthreads();
    sum = tile_products<T>(a_tile, b_tile, sum);
    __syncthreads();
    if (S == store_at::every_step && (E == edges::unguarded || inside))
      c[element_index(row, col, n)] = sum;
  }
  if (S == store_at::end && (E == edges::unguarded || inside)) c[element_index(row, col, n)] = sum;
}

template <edges E, store_at S>
launch_dims launch_with(const float* a, const float* b, float* c, std::size_t n, unsigned tile,
                        cudaStream_t stream) {
  const launch_dims d = tiled_dims(n, tile);
  const auto side = static_cast<unsigned>(n);
  switch (tile) {
    case 2:
      tiled_kernel<2, E, S><<<d.grid, d.block, 0, stream>>>(a, b, c, side);
      break;
    case 4:
      tiled_kernel<4, E, S><<<d.grid, d.block, 0, stream>>>(a, b, c, side);
      break;
    case 8:
      tiled_kernel<8, E, S><<<d.grid, d.block, 0, stream>>>(a, b, c, side);
      break;
    case 16:
      tiled_kernel<16, E, S><<<d.grid, d.block, 0, stream>>>(a, b, c, side);
      break;
    default:
      tiled_kernel<32, E, S><<<d.grid, d.block, 0, stream>>>(a, b, c, side);
      break;
  }
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

launch_dims launch_tiled(const float* a, const float* b, float* c, std::size_t n, unsigned tile,
                         cudaStream_t stream) {
  return launch_with<edges::guarded, store_at::end>(a, b, c, n, tile, stream);
}

launch_dims launch_tiled_unguarded(const float* a, const float* b, float* c, std::size_t n,
                                   unsigned tile, cudaStream_t stream) {
  return launch_with<edges::unguarded, store_at::end>(a, b, c, n, tile, stream);
}

launch_dims launch_tiled_store_in_loop(const float* a, const float* b, float* c, std::size_t n,
                                       unsigned tile, cudaStream_t stream) {
  return launch_with<edges::guarded, store_at::every_step>(a, b, c, n, tile, stream);
}

}  // namespace cudalab::matmul
