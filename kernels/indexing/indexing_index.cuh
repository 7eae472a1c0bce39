// Index arithmetic of lab 01, shared by the kernels (device) and the access model (host), so
// the model's predictions cannot drift from what the kernels do.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::indexing {

// The position of one thread in its launch, in the form both sides can build.
struct thread_coord {
  unsigned block_x, block_y;
  unsigned thread_x, thread_y;
  unsigned block_dim_x, block_dim_y;
  unsigned grid_dim_x;
};

// The grid size of the source tutorial: q // t + q % t. It launches q % t extra blocks
// (up to t - 1 of them), not the one extra block a partial tail needs.
__host__ __device__ inline std::size_t grid_overlaunch(std::size_t n, unsigned block) {
  return n / block + n % block;
}

// The right grid size: the smallest number of blocks that covers n elements.
__host__ __device__ inline std::size_t grid_ceil_div(std::size_t n, unsigned block) {
  return (n + block - 1) / block;
}

// The grid-stride variant launches a bounded grid and loops.
inline constexpr std::size_t grid_stride_max_blocks = 1024;
__host__ __device__ inline std::size_t grid_stride_blocks(std::size_t n, unsigned block) {
  const std::size_t needed = grid_ceil_div(n, block);
  return needed < grid_stride_max_blocks ? needed : grid_stride_max_blocks;
}

// 1D: the global index of a thread.
__host__ __device__ inline std::size_t global_index_1d(const thread_coord& c) {
  return static_cast<std::size_t>(c.block_x) * c.block_dim_x + c.thread_x;
}

// 1D grid-stride loop: the k-th element a thread handles, and the loop's stride.
__host__ __device__ inline std::size_t grid_stride(const thread_coord& c) {
  return static_cast<std::size_t>(c.grid_dim_x) * c.block_dim_x;
}

// 2D, a side x side row-major matrix. The naive mapping sends threadIdx.x (consecutive lanes
// of a warp) down a column: lanes touch addresses `side` floats apart.
__host__ __device__ inline std::size_t row_x_rows(const thread_coord& c) {
  return static_cast<std::size_t>(c.block_x) * c.block_dim_x + c.thread_x;
}
__host__ __device__ inline std::size_t col_x_rows(const thread_coord& c) {
  return static_cast<std::size_t>(c.block_y) * c.block_dim_y + c.thread_y;
}
// The fix: threadIdx.x walks along a row, so a warp reads 32 consecutive floats.
__host__ __device__ inline std::size_t row_x_cols(const thread_coord& c) {
  return static_cast<std::size_t>(c.block_y) * c.block_dim_y + c.thread_y;
}
__host__ __device__ inline std::size_t col_x_cols(const thread_coord& c) {
  return static_cast<std::size_t>(c.block_x) * c.block_dim_x + c.thread_x;
}

// The work every lab-01 kernel does on one element: out = a * in + b.
__host__ __device__ inline float affine(float x, float a, float b) { return a * x + b; }

#if defined(__CUDACC__)
__device__ inline thread_coord this_thread() {
  return thread_coord{blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y,
                      blockDim.x, blockDim.y, gridDim.x};
}
#endif

}  // namespace cudalab::indexing
