// Index arithmetic of lab 01, shared by the kernels (device) and the access model (host), so
// the model's predictions cannot drift from what the kernels do.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

// The grid that forgets the tail: n / t blocks cover (n / t) * t elements, and the last n % t
// are never touched.
__host__ __device__ inline std::size_t grid_underlaunch(std::size_t n, unsigned block) {
  return n / block;
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

// A 32-bit index overflows only past 2^31 elements (8 GiB of floats), so lab 01 shows it on a
// window of such a launch: the buffers hold the `size` elements around element 2^31, and the
// window's block b plays block first_block + b of the full launch. in[i - first_element] is
// element i of the full array; the full array ends where the window does.
struct index_window {
  unsigned first_block;        // the full launch's block that the window's block 0 plays
  std::int64_t first_element;  // first_block * block: the full array's index of window element 0
  std::int64_t n;              // elements of the full array: first_element + size
};

// The largest window lab 01 simulates (its buffers are allocated for real).
inline constexpr std::size_t index_window_max = std::size_t{1} << 30;
inline constexpr std::int64_t int_index_limit = std::int64_t{1}
                                                << 31;  // first index an int cannot hold

// The window of `size` elements (at most index_window_max) that starts about size/2 below
// element 2^31, on a block boundary, so that its blocks straddle the overflow.
__host__ __device__ inline index_window overflow_window(std::size_t size, unsigned block) {
  const std::int64_t start = int_index_limit - static_cast<std::int64_t>(size / 2);
  const auto first_block = static_cast<unsigned>(start / block);
  const std::int64_t first_element = static_cast<std::int64_t>(first_block) * block;
  return {first_block, first_element, first_element + static_cast<std::int64_t>(size)};
}

// BUGGY: the global index held in an int, as in `int i = blockIdx.x * blockDim.x + threadIdx.x`.
// The product is unsigned 32-bit arithmetic, and from 2^31 on, the conversion to int wraps it
// to a negative number (two's complement: what nvcc and the host compilers do).
__host__ __device__ inline int global_index_int(const thread_coord& c, unsigned first_block) {
  return static_cast<int>((first_block + c.block_x) * c.block_dim_x + c.thread_x);
}

// FIXED: widen to 64 bits before multiplying.
__host__ __device__ inline std::int64_t global_index_64(const thread_coord& c,
                                                        unsigned first_block) {
  return static_cast<std::int64_t>(first_block + c.block_x) * c.block_dim_x + c.thread_x;
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
