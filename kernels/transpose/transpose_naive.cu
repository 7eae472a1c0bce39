// The two copies and the two naive transposes: global memory only, no staging.
//
// All four cut the matrix into 32 x 32 tiles and move a tile a block. The copies read and
// write rows: every warp instruction touches 32 consecutive floats, 4 sectors when the row is
// aligned. A transpose cannot do that both ways round: what is a row of the input is a column
// of the output. naive_row_read reads rows and writes columns, so each store request scatters
// its 32 lanes over 32 rows of the output (32 sectors, 4 useful bytes each); naive_col_read
// reads columns and writes rows, so each load request is the one touching 32 sectors. Which is
// faster is a question about caches, not about the counts (labs/06-bank-conflicts/README.md).
#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::transpose {

// Thread (tx, ty) moves input (r, c) = (32 by + ty + 8 j, 32 bx + tx) to out(r, c).
__global__ void transpose_copy_kernel(const float* in, float* out, unsigned rows, unsigned cols) {
  const std::size_t c = tile_col(blockIdx.x, threadIdx.x);
#pragma unroll
  for (unsigned j = 0; j < steps_of(strip_rows); ++j) {
    const std::size_t r = tile_row(blockIdx.y, local_row(threadIdx.y, j, strip_rows));
    if (r < rows && c < cols) out[element_index(r, c, cols)] = in[element_index(r, c, cols)];
  }
}

// The same copy with __restrict__ pointers: the compiler may now assume that no store to out
// changes in: its SASS (sm_90, CUDA 13.0) issues three loads back to back, their three stores,
// then the fourth load and store. Without it, each load must wait for the store before it,
// which might have written the same address.
__global__ void transpose_copy_restrict_kernel(const float* __restrict__ in,
                                               float* __restrict__ out, unsigned rows,
                                               unsigned cols) {
  const std::size_t c = tile_col(blockIdx.x, threadIdx.x);
#pragma unroll
  for (unsigned j = 0; j < steps_of(strip_rows); ++j) {
    const std::size_t r = tile_row(blockIdx.y, local_row(threadIdx.y, j, strip_rows));
    if (r < rows && c < cols) out[element_index(r, c, cols)] = in[element_index(r, c, cols)];
  }
}

// Thread (tx, ty) reads input (32 by + ty, 32 bx + tx), a row across the warp, and writes it to
// output (32 bx + tx, 32 by + ty): a column of the output across the warp.
__global__ void transpose_naive_row_read_kernel(const float* in, float* out, unsigned rows,
                                                unsigned cols) {
  const std::size_t r = tile_row(blockIdx.y, threadIdx.y);
  const std::size_t c = tile_col(blockIdx.x, threadIdx.x);
  if (r < rows && c < cols) out[element_index(c, r, rows)] = in[element_index(r, c, cols)];
}

// Thread (tx, ty) writes output (32 bx + ty, 32 by + tx), a row across the warp, from input
// (32 by + tx, 32 bx + ty): a column of the input across the warp.
__global__ void transpose_naive_col_read_kernel(const float* in, float* out, unsigned rows,
                                                unsigned cols) {
  const std::size_t r = tile_row(blockIdx.y, threadIdx.x);
  const std::size_t c = tile_col(blockIdx.x, threadIdx.y);
  if (r < rows && c < cols) out[element_index(c, r, rows)] = in[element_index(r, c, cols)];
}

launch_dims launch_copy(const float* in, float* out, std::size_t rows, std::size_t cols,
                        cudaStream_t stream) {
  const launch_dims d = tile_dims(rows, cols, strip_rows);
  transpose_copy_kernel<<<d.grid, d.block, 0, stream>>>(in, out, static_cast<unsigned>(rows),
                                                        static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_copy_restrict(const float* in, float* out, std::size_t rows, std::size_t cols,
                                 cudaStream_t stream) {
  const launch_dims d = tile_dims(rows, cols, strip_rows);
  transpose_copy_restrict_kernel<<<d.grid, d.block, 0, stream>>>(
      in, out, static_cast<unsigned>(rows), static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_naive_row_read(const float* in, float* out, std::size_t rows, std::size_t cols,
                                  cudaStream_t stream) {
  const launch_dims d = tile_dims(rows, cols, one_element_rows);
  transpose_naive_row_read_kernel<<<d.grid, d.block, 0, stream>>>(
      in, out, static_cast<unsigned>(rows), static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_naive_col_read(const float* in, float* out, std::size_t rows, std::size_t cols,
                                  cudaStream_t stream) {
  const launch_dims d = tile_dims(rows, cols, one_element_rows);
  transpose_naive_col_read_kernel<<<d.grid, d.block, 0, stream>>>(
      in, out, static_cast<unsigned>(rows), static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::transpose
