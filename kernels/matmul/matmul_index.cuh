// Index arithmetic of lab 03 (the matrix product C = A B of n x n row-major floats), shared by
// the kernels (device) and the access model (host), so a prediction walks exactly the
// addresses the kernels touch.
//
// Every function takes plain integers (block, thread, tile step), never blockIdx/threadIdx, so
// the model can call it for any lane of any warp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::matmul {

// The tiles the lab builds: one kernel instantiation each, T x T threads a block.
inline constexpr unsigned min_tile = 2;
inline constexpr unsigned max_tile = 32;
__host__ __device__ inline bool is_built_tile(unsigned tile) {
  return tile == 2 || tile == 4 || tile == 8 || tile == 16 || tile == 32;
}

// The naive kernel's blocks are 32 x (threads / 32): a warp is 32 columns of one row.
inline constexpr unsigned naive_block_x = 32;

// Element (row, col) of an n x n row-major matrix.
__host__ __device__ inline std::size_t element_index(std::size_t row, std::size_t col,
                                                     std::size_t n) {
  return row * n + col;
}

// The output a thread computes: row from y, column from x, so the 32 lanes of a warp read
// and write consecutive columns.
__host__ __device__ inline std::size_t output_row(unsigned block_y, unsigned block_dim_y,
                                                  unsigned thread_y) {
  return static_cast<std::size_t>(block_y) * block_dim_y + thread_y;
}
__host__ __device__ inline std::size_t output_col(unsigned block_x, unsigned block_dim_x,
                                                  unsigned thread_x) {
  return static_cast<std::size_t>(block_x) * block_dim_x + thread_x;
}

// Tile step t of a T x T block: the A element thread (tx, ty) stages is (row, t T + tx), the B
// element (t T + ty, col).
__host__ __device__ inline std::size_t a_tile_col(unsigned step, unsigned tile, unsigned thread_x) {
  return static_cast<std::size_t>(step) * tile + thread_x;
}
__host__ __device__ inline std::size_t b_tile_row(unsigned step, unsigned tile, unsigned thread_y) {
  return static_cast<std::size_t>(step) * tile + thread_y;
}

// Tile steps over the inner dimension: the last one is partial when n is not a multiple.
__host__ __device__ inline unsigned tile_steps(std::size_t n, unsigned tile) {
  return static_cast<unsigned>((n + tile - 1) / tile);
}

// The word of a T x T shared tile at (r, c), row-major. The A tile comes first in shared
// memory, the B tile right after it (b_tile_offset words on).
__host__ __device__ inline unsigned tile_word(unsigned r, unsigned c, unsigned tile) {
  return r * tile + c;
}
__host__ __device__ inline unsigned b_tile_offset(unsigned tile) { return tile * tile; }

// Elements a buffer holds: n x n plus a band that the unguarded kernel reaches when n is not a
// multiple of the tile (rows and columns up to ceil(n/T) T - 1, inner index likewise). Every
// variant allocates this much, so the buggy kernel's stray reads and writes stay inside the
// allocation and its writes can be seen in the band.
__host__ __device__ inline std::size_t padded_elements(std::size_t n) {
  return (n + max_tile) * n + max_tile;
}

}  // namespace cudalab::matmul
