// pad_to_64: the padding route to several outputs a thread. A and B are copied into
// zero-padded buffers whose side is a multiple of 64, so the product kernel needs no edge
// guard: 32 x 8 threads compute a 32 x 32 tile of C, four rows a thread, from 32 x 32 shared
// tiles, and the result is copied back out. The copies cost three passes over the matrices
// and three extra buffers; the lab times the product with and without them.
#include "matmul/matmul_index.cuh"
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::matmul {
namespace {

// dst (side x side) = src (n x n) with zeros past it.
__global__ void __launch_bounds__(copy_block_x* copy_block_y)
    pad_copy_kernel(const float* src, unsigned n, float* dst, unsigned side) {
  const std::size_t row = output_row(blockIdx.y, blockDim.y, threadIdx.y);
  const std::size_t col = output_col(blockIdx.x, blockDim.x, threadIdx.x);
  if (row >= side || col >= side) return;
  dst[element_index(row, col, side)] = row < n && col < n ? src[element_index(row, col, n)] : 0.0f;
}

// dst (n x n) = the first n x n of src (side x side).
__global__ void __launch_bounds__(copy_block_x* copy_block_y)
    unpad_copy_kernel(const float* src, unsigned side, float* dst, unsigned n) {
  const std::size_t row = output_row(blockIdx.y, blockDim.y, threadIdx.y);
  const std::size_t col = output_col(blockIdx.x, blockDim.x, threadIdx.x);
  if (row >= n || col >= n) return;
  dst[element_index(row, col, n)] = src[element_index(row, col, side)];
}

__global__ void __launch_bounds__(pad_tile* pad_block_y)
    pad_product_kernel(const float* a, const float* b, float* c, unsigned side) {
  __shared__ float a_tile[pad_tile * pad_tile];
  __shared__ float b_tile[pad_tile * pad_tile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row0 = block_first_row(blockIdx.y, pad_tile);
  const std::size_t col0 = block_first_col(blockIdx.x, pad_tile);
  float acc[pad_outputs] = {};
  for (unsigned s = 0; s < side / pad_tile; ++s) {
#pragma unroll
    for (unsigned i = 0; i < pad_outputs; ++i) {
      const unsigned r = pad_row(ty, i);
      a_tile[tile_word(r, tx, pad_tile)] =
          a[element_index(row0 + r, step_index(s, pad_tile, tx), side)];
      b_tile[tile_word(r, tx, pad_tile)] =
          b[element_index(step_index(s, pad_tile, r), col0 + tx, side)];
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < pad_tile; ++k) {
      const float bv = b_tile[tile_word(k, tx, pad_tile)];
#pragma unroll
      for (unsigned i = 0; i < pad_outputs; ++i)
        acc[i] += a_tile[tile_word(pad_row(ty, i), k, pad_tile)] * bv;
    }
    __syncthreads();
  }
#pragma unroll
  for (unsigned i = 0; i < pad_outputs; ++i)
    c[element_index(row0 + pad_row(ty, i), col0 + tx, side)] = acc[i];
}

}  // namespace

void launch_pad_inputs(const float* a, const float* b, float* a_padded, float* b_padded,
                       std::size_t n, cudaStream_t stream) {
  check_side(n);
  const std::size_t side = padded_side(n);
  const launch_dims d = pad_copy_dims(side);
  pad_copy_kernel<<<d.grid, d.block, 0, stream>>>(a, static_cast<unsigned>(n), a_padded,
                                                  static_cast<unsigned>(side));
  CUDALAB_CHECK_LAUNCH();
  pad_copy_kernel<<<d.grid, d.block, 0, stream>>>(b, static_cast<unsigned>(n), b_padded,
                                                  static_cast<unsigned>(side));
  CUDALAB_CHECK_LAUNCH();
}

launch_dims launch_pad_product(const float* a_padded, const float* b_padded, float* c_padded,
                               std::size_t n, cudaStream_t stream) {
  const launch_dims d = pad_product_dims(n);
  pad_product_kernel<<<d.grid, d.block, 0, stream>>>(a_padded, b_padded, c_padded,
                                                     static_cast<unsigned>(padded_side(n)));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

void launch_unpad_output(const float* c_padded, float* c, std::size_t n, cudaStream_t stream) {
  check_side(n);
  const launch_dims d = pad_copy_dims(n);
  unpad_copy_kernel<<<d.grid, d.block, 0, stream>>>(c_padded, static_cast<unsigned>(padded_side(n)),
                                                    c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
}

std::vector<kernel_resources> pad_to_64_resources() {
  return {
      query_kernel_resources(reinterpret_cast<const void*>(&pad_product_kernel),
                             "pad_product_kernel", static_cast<int>(pad_tile * pad_block_y)),
      query_kernel_resources(reinterpret_cast<const void*>(&pad_copy_kernel), "pad_copy_kernel",
                             static_cast<int>(copy_block_x * copy_block_y)),
      query_kernel_resources(reinterpret_cast<const void*>(&unpad_copy_kernel), "unpad_copy_kernel",
                             static_cast<int>(copy_block_x * copy_block_y))};
}

}  // namespace cudalab::matmul
