// The transposes staged through a 32 x 32 tile in shared memory.
//
// A block reads its input tile row by row (coalesced), stores it into the tile, waits at
// __syncthreads(), then reads the tile column by column and writes the output row by row
// (coalesced). The global traffic is the copy's; the cost moves to shared memory, where the
// tile's layout decides the banks:
//   plain     [32][32]: a column is 32 words 32 apart, all in one bank: each column read is
//             32 wavefronts, a 32-way conflict;
//   padded    [32][33]: words 33 apart, bank (r + c) mod 32: one wavefront;
//   swizzled  [32][32], column c of row r stored at c XOR r: a row and a column each cover
//             the 32 banks once: one wavefront, no padding.
// tile64_rows moves a padded 64 x 64 tile ([64][65]) with the 32 x 8 threads of tile_rows: 16
// elements a thread, each lane taking columns tx and tx + 32, so that 16 loads are in flight
// before the barrier; a column read is still one word a bank (pitch 65).
// For doubles every access moves 8 bytes a lane, served in two half-warp phases: the plain
// tile's column read is 16 distinct words in one bank pair a phase (32 wavefronts for an ideal
// 2), the padded one's 16 lanes cover the 32 banks once a phase (2 wavefronts).
#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::transpose {
namespace {

// The body every tiled kernel shares: block_rows rows of threads, Side / block_rows rows and
// Side / 32 columns a thread in each phase.
template <class T, unsigned BlockRows, tile_layout Layout, unsigned Side = tile_dim>
__device__ void transpose_through_tile(const T* in, T* out, unsigned rows, unsigned cols) {
  __shared__ T tile[tile_elements(Layout, Side)];
  const unsigned tx = threadIdx.x;
#pragma unroll
  for (unsigned h = 0; h < passes_of(Side); ++h)
#pragma unroll
    for (unsigned j = 0; j < steps_of(BlockRows, Side); ++j) {
      const unsigned lr = local_row(threadIdx.y, j, BlockRows), lc = local_col(tx, h);
      const std::size_t r = tile_row(blockIdx.y, lr, Side), c = tile_col(blockIdx.x, lc, Side);
      if (r < rows && c < cols)
        tile[tile_element(Layout, lr, lc, Side)] = in[element_index(r, c, cols)];
    }
  __syncthreads();
#pragma unroll
  for (unsigned h = 0; h < passes_of(Side); ++h)
#pragma unroll
    for (unsigned j = 0; j < steps_of(BlockRows, Side); ++j) {
      const unsigned lr = local_row(threadIdx.y, j, BlockRows), lc = local_col(tx, h);
      // Output (c, r) = input (r, c) with r = S by + lc, c = S bx + lr: tile element (lc, lr).
      const std::size_t r = tile_row(blockIdx.y, lc, Side), c = tile_col(blockIdx.x, lr, Side);
      if (r < rows && c < cols)
        out[element_index(c, r, rows)] = tile[tile_element(Layout, lc, lr, Side)];
    }
}

}  // namespace

// Named kernels, so a profiler or debugger shows which tile each one is (scripts/debug.sh).
__global__ void transpose_shared_tile_kernel(const float* in, float* out, unsigned rows,
                                             unsigned cols) {
  transpose_through_tile<float, one_element_rows, tile_layout::plain>(in, out, rows, cols);
}
__global__ void transpose_padded_kernel(const float* in, float* out, unsigned rows, unsigned cols) {
  transpose_through_tile<float, one_element_rows, tile_layout::padded>(in, out, rows, cols);
}
__global__ void transpose_swizzled_kernel(const float* in, float* out, unsigned rows,
                                          unsigned cols) {
  transpose_through_tile<float, one_element_rows, tile_layout::swizzled>(in, out, rows, cols);
}
__global__ void transpose_tile_rows_kernel(const float* in, float* out, unsigned rows,
                                           unsigned cols) {
  transpose_through_tile<float, strip_rows, tile_layout::padded>(in, out, rows, cols);
}
__global__ void transpose_tile64_rows_kernel(const float* in, float* out, unsigned rows,
                                             unsigned cols) {
  transpose_through_tile<float, strip_rows, tile_layout::padded, wide_tile_dim>(in, out, rows,
                                                                                cols);
}
__global__ void transpose_shared_tile_double_kernel(const double* in, double* out, unsigned rows,
                                                    unsigned cols) {
  transpose_through_tile<double, one_element_rows, tile_layout::plain>(in, out, rows, cols);
}
__global__ void transpose_padded_double_kernel(const double* in, double* out, unsigned rows,
                                               unsigned cols) {
  transpose_through_tile<double, one_element_rows, tile_layout::padded>(in, out, rows, cols);
}

namespace {

template <class T>
using tiled_kernel = void (*)(const T*, T*, unsigned, unsigned);

template <class T>
launch_dims launch_tiled(tiled_kernel<T> kernel, unsigned block_rows, const T* in, T* out,
                         std::size_t rows, std::size_t cols, cudaStream_t stream,
                         unsigned side = tile_dim) {
  const launch_dims d = tile_dims(rows, cols, block_rows, side);
  kernel<<<d.grid, d.block, 0, stream>>>(in, out, static_cast<unsigned>(rows),
                                         static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

launch_dims launch_shared_tile(const float* in, float* out, std::size_t rows, std::size_t cols,
                               cudaStream_t stream) {
  return launch_tiled<float>(transpose_shared_tile_kernel, one_element_rows, in, out, rows, cols,
                             stream);
}
launch_dims launch_padded(const float* in, float* out, std::size_t rows, std::size_t cols,
                          cudaStream_t stream) {
  return launch_tiled<float>(transpose_padded_kernel, one_element_rows, in, out, rows, cols,
                             stream);
}
launch_dims launch_swizzled(const float* in, float* out, std::size_t rows, std::size_t cols,
                            cudaStream_t stream) {
  return launch_tiled<float>(transpose_swizzled_kernel, one_element_rows, in, out, rows, cols,
                             stream);
}
launch_dims launch_tile_rows(const float* in, float* out, std::size_t rows, std::size_t cols,
                             cudaStream_t stream) {
  return launch_tiled<float>(transpose_tile_rows_kernel, strip_rows, in, out, rows, cols, stream);
}
launch_dims launch_tile64_rows(const float* in, float* out, std::size_t rows, std::size_t cols,
                               cudaStream_t stream) {
  return launch_tiled<float>(transpose_tile64_rows_kernel, strip_rows, in, out, rows, cols, stream,
                             wide_tile_dim);
}
launch_dims launch_shared_tile_double(const double* in, double* out, std::size_t rows,
                                      std::size_t cols, cudaStream_t stream) {
  return launch_tiled<double>(transpose_shared_tile_double_kernel, one_element_rows, in, out, rows,
                              cols, stream);
}
launch_dims launch_padded_double(const double* in, double* out, std::size_t rows, std::size_t cols,
                                 cudaStream_t stream) {
  return launch_tiled<double>(transpose_padded_double_kernel, one_element_rows, in, out, rows, cols,
                              stream);
}

}  // namespace cudalab::transpose
