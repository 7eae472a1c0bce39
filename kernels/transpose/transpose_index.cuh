// Index arithmetic of lab 06 (the transpose of a rows x cols row-major matrix into a cols x rows
// one), shared by the kernels (device) and the access model (host), so a prediction walks
// exactly the addresses the kernels touch.
//
// Every kernel of the lab cuts the input into 32 x 32 tiles, one a block: block (bx, by) holds
// input rows 32 by .. 32 by + 31 and columns 32 bx .. 32 bx + 31. Its threads are 32 x R
// (R = block_rows): thread (tx, ty) handles local rows ty, ty + R, ... (32 / R of them), so lane
// tx of a warp always walks a row of 32 consecutive columns. Every function takes plain integers,
// never blockIdx/threadIdx, so the model can call it for any lane of any warp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::transpose {

// The side of a tile, and of a warp's row of it.
inline constexpr unsigned tile_dim = 32;
// Threads a block in y: 32 (one element a thread) or 8 (four elements a thread).
inline constexpr unsigned one_element_rows = 32;
inline constexpr unsigned strip_rows = 8;

// How a 32 x 32 tile is laid out in shared memory:
//   plain     element (r, c) at word 32 r + c: a column is 32 words of one bank;
//   padded    a row pitch of 33: the column's words fall in 32 different banks;
//   swizzled  column c of row r stored at column c XOR r, pitch 32: rows and columns both
//             cover the 32 banks, with no padding.
enum class tile_layout { plain, padded, swizzled };

__host__ __device__ constexpr unsigned tile_pitch(tile_layout layout) {
  return layout == tile_layout::padded ? tile_dim + 1 : tile_dim;
}
__host__ __device__ constexpr unsigned tile_elements(tile_layout layout) {
  return tile_dim * tile_pitch(layout);
}
// The element of the tile array that holds tile element (r, c) (both 0..31).
__host__ __device__ inline unsigned tile_element(tile_layout layout, unsigned r, unsigned c) {
  switch (layout) {
    case tile_layout::padded:
      return r * (tile_dim + 1) + c;
    case tile_layout::swizzled:
      return r * tile_dim + (c ^ r);
    case tile_layout::plain:
      break;
  }
  return r * tile_dim + c;
}

// The local row of step j of thread row ty in a block of block_rows rows.
__host__ __device__ inline unsigned local_row(unsigned thread_y, unsigned step,
                                              unsigned block_rows) {
  return thread_y + step * block_rows;
}
// Steps a thread makes: 32 / block_rows local rows.
__host__ __device__ inline unsigned steps_of(unsigned block_rows) { return tile_dim / block_rows; }

// The first input row and column of block (bx, by), plus a local offset.
__host__ __device__ inline std::size_t tile_row(unsigned block_y, unsigned local) {
  return static_cast<std::size_t>(block_y) * tile_dim + local;
}
__host__ __device__ inline std::size_t tile_col(unsigned block_x, unsigned local) {
  return static_cast<std::size_t>(block_x) * tile_dim + local;
}

// Element (row, col) of a row-major matrix with `width` columns. The input is rows x cols
// (width cols); the output of a transpose is cols x rows (width rows), its element (c, r)
// being the input's (r, c).
__host__ __device__ inline std::size_t element_index(std::size_t row, std::size_t col,
                                                     std::size_t width) {
  return row * width + col;
}

// The shared-memory stride sweep: lane l of the warp of thread row ty touches word
// ty * 32 * stride + l * stride of a buffer of strip_rows * 32 * max_stride words. Lanes
// `stride` words apart share a bank every 32 / gcd(stride, 32) lanes: gcd(stride, 32) ways.
inline constexpr unsigned min_stride = 1;
inline constexpr unsigned max_stride = 32;
inline constexpr unsigned stride_buffer_words = strip_rows * tile_dim * max_stride;
__host__ __device__ inline unsigned stride_word(unsigned thread_y, unsigned lane, unsigned stride) {
  return (thread_y * tile_dim + lane) * stride;
}

// Elements every buffer holds: the matrix and a band after it that reaches past what any tile
// covers ((rows rounded up to 32) x (cols rounded up to 32), either way round). A kernel that
// drops its guards reads the input's band (NaN) and writes into the output's band (poison),
// inside the allocation, where verification sees it.
__host__ __device__ inline std::size_t padded_elements(std::size_t rows, std::size_t cols) {
  return (rows + tile_dim) * (cols + tile_dim);
}

}  // namespace cudalab::transpose
