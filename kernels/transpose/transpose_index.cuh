// Index arithmetic of lab 06 (the transpose of a rows x cols row-major matrix into a cols x rows
// one), shared by the kernels (device) and the access model (host), so a prediction walks
// exactly the addresses the kernels touch.
//
// Every kernel of the lab cuts the input into square tiles of side S, one a block (S = 32, or 64
// for tile64_rows and the two tile64_vec4): block (bx, by) holds input rows S by .. S by + S - 1
// and columns S bx .. S bx + S - 1 (tile64_vec4 maps its blocks onto the tiles in another order:
// column_order_tile). In the kernels of 4-byte accesses the threads are 32 x R (R = block_rows):
// thread (tx, ty) handles local rows ty, ty + R, ... (S / R of them) and local columns tx,
// tx + 32, ... (S / 32 of them), so lane tx of a warp always walks 32 consecutive columns of a
// row; tile64_vec4's lanes move 16-byte chunks (its comment below). Every function
// takes plain integers, never blockIdx/threadIdx, so the model can call it for any lane of any
// warp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::transpose {

// The side of a tile, and of a warp's row of it.
inline constexpr unsigned tile_dim = 32;
// The side of tile64_rows's tile: four times the elements a block, so that each thread has 16
// loads in flight before the barrier instead of 4.
inline constexpr unsigned wide_tile_dim = 64;
// Threads a block in y: 32 (one element a thread) or 8 (four elements a thread).
inline constexpr unsigned one_element_rows = 32;
inline constexpr unsigned strip_rows = 8;

// How a 32 x 32 tile is laid out in shared memory:
//   plain     element (r, c) at word 32 r + c: a column is 32 words of one bank;
//   padded    a row pitch of 33: the column's words fall in 32 different banks;
//   swizzled  column c of row r stored at column c XOR r, pitch 32: rows and columns both
//             cover the 32 banks, with no padding.
enum class tile_layout { plain, padded, swizzled };

// A tile of side `side` (swizzled: 32 only).
__host__ __device__ constexpr unsigned tile_pitch(tile_layout layout, unsigned side = tile_dim) {
  return layout == tile_layout::padded ? side + 1 : side;
}
__host__ __device__ constexpr unsigned tile_elements(tile_layout layout, unsigned side = tile_dim) {
  return side * tile_pitch(layout, side);
}
// The element of the tile array that holds tile element (r, c) (both 0..side - 1).
__host__ __device__ inline unsigned tile_element(tile_layout layout, unsigned r, unsigned c,
                                                 unsigned side = tile_dim) {
  switch (layout) {
    case tile_layout::padded:
      return r * (side + 1) + c;
    case tile_layout::swizzled:
      return r * side + (c ^ r);
    case tile_layout::plain:
      break;
  }
  return r * side + c;
}

// The local row of step j of thread row ty in a block of block_rows rows.
__host__ __device__ inline unsigned local_row(unsigned thread_y, unsigned step,
                                              unsigned block_rows) {
  return thread_y + step * block_rows;
}
// Steps a thread makes down a tile of side `side`: side / block_rows local rows.
__host__ __device__ inline unsigned steps_of(unsigned block_rows, unsigned side = tile_dim) {
  return side / block_rows;
}
// The columns a lane takes across a row of the tile: side / 32, lane tx taking local column
// local_col(tx, h) at pass h.
__host__ __device__ inline unsigned passes_of(unsigned side) { return side / tile_dim; }
__host__ __device__ inline unsigned local_col(unsigned lane, unsigned pass) {
  return lane + pass * tile_dim;
}

// The first input row and column of block (bx, by), plus a local offset.
__host__ __device__ inline std::size_t tile_row(unsigned block_y, unsigned local,
                                                unsigned side = tile_dim) {
  return static_cast<std::size_t>(block_y) * side + local;
}
__host__ __device__ inline std::size_t tile_col(unsigned block_x, unsigned local,
                                                unsigned side = tile_dim) {
  return static_cast<std::size_t>(block_x) * side + local;
}

// tile64_vec4: the 64 x 64 tile moved in chunks of 4 floats of a row (16 bytes) both ways, by
// 32 x 8 threads, one chunk a thread a step, 4 steps.
// - Loads: 16 lanes a row. Thread (tx, ty) at step j loads chunk tx mod 16 of tile row
//   16 j + 2 ty + tx / 16: a warp's load is 2 whole rows of 256 bytes, 16 whole sectors.
// - Stores: 8 lanes a row. Step j of thread row ty takes the group g = (8 j + ty) mod 16 of 4
//   output rows (columns of the input tile) and the half h = (8 j + ty) / 16 of a row's 16
//   chunks; lane tx takes output row 4 g + tx / 8 and chunk 8 h + tx mod 8 of it: 4 rows of
//   128 bytes, 16 whole sectors too. Not 16 lanes a row as the loads: a lane builds its chunk
//   from 4 shared reads of one tile column, and the word's place in its 16-byte chunk (its
//   column mod 4) is the same in every layout that keeps chunks whole; with 2 output rows a warp
//   the 32 lanes would have 2 such places and 8 chunk positions, 16 banks: a 2-way conflict on
//   every read. 4 rows give 4 places, 32 banks.
inline constexpr unsigned chunk_floats = 4;
// A 16-byte access needs its row to start on 16 bytes: the input's rows (cols floats) for the
// loads, the output's (rows floats) for the stores. At other sides tile64_vec4's launcher runs
// tile64_rows's kernel, 4 bytes a lane (the model predicts that kernel there).
__host__ __device__ inline bool chunks_fit(std::size_t rows, std::size_t cols) {
  return rows % chunk_floats == 0 && cols % chunk_floats == 0;
}
inline constexpr unsigned chunk_steps =
    wide_tile_dim * wide_tile_dim / (chunk_floats * tile_dim * strip_rows);
inline constexpr unsigned row_chunks = wide_tile_dim / chunk_floats;  // 16 a row
__host__ __device__ inline unsigned load_chunk_row(unsigned lane, unsigned thread_y,
                                                   unsigned step) {
  return (step * strip_rows * tile_dim + thread_y * tile_dim + lane) / row_chunks;
}
__host__ __device__ inline unsigned load_chunk_first_col(unsigned lane) {
  return lane % row_chunks * chunk_floats;
}
__host__ __device__ inline unsigned store_chunk_row(unsigned lane, unsigned thread_y,
                                                    unsigned step) {
  return (step * strip_rows + thread_y) % 16 * 4 + lane / 8;
}
__host__ __device__ inline unsigned store_chunk_first_col(unsigned lane, unsigned thread_y,
                                                          unsigned step) {
  return ((step * strip_rows + thread_y) / 16 * 8 + lane % 8) * chunk_floats;
}
// tile64_vec4's order of tiles: block b (blockIdx.y gx + blockIdx.x) takes the tiles down a
// column first, tile (b / gy, b mod gy) of the gx x gy grid, where every other kernel of the lab
// takes them along a row. A one-to-one map of the grid onto itself: the exact counts are the
// same, the order of the addresses differs (if blocks start roughly in the order of their index,
// a hypothesis CUDA does not promise, blocks started together write adjacent pieces of the same
// output rows).
struct tile_position {
  unsigned x, y;  // the tile's column and row, in tiles
};
__host__ __device__ inline tile_position column_order_tile(unsigned block_x, unsigned block_y,
                                                           unsigned grid_x, unsigned grid_y) {
  const unsigned block = block_y * grid_x + block_x;
  return {block / grid_y, block % grid_y};
}
// The shared word of tile element (r, c), 64 words a row: chunk c / 4 of row r stored at chunk
// position (c / 4) XOR (r / 4). A chunk stays whole and aligned (one 16-byte store; a load's 8
// lanes of one row land on 8 different chunk positions, 32 banks). In the column read of step j
// lane tx reads rows 4 (8 h + tx mod 8) + i of column 4 g + tx / 8, at chunk positions
// g XOR (8 h + tx mod 8): 8 different ones, 4 banks each, so the 32 lanes cover the 32 banks
// once, with no padding.
__host__ __device__ inline unsigned chunked_tile_word(unsigned r, unsigned c) {
  return r * wide_tile_dim + ((c / chunk_floats) ^ (r / chunk_floats % 16)) * chunk_floats +
         c % chunk_floats;
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
// covers ((rows rounded up to 32) x (cols rounded up to 32), either way round); tile64_rows's
// wider tiles are guarded, and an unguarded kernel of the lab reaches no further than a 32-tile. A
// kernel that drops its guards reads the input's band (NaN) and writes into the output's band
// (poison), inside the allocation, where verification sees it.
__host__ __device__ inline std::size_t padded_elements(std::size_t rows, std::size_t cols) {
  return (rows + tile_dim) * (cols + tile_dim);
}

}  // namespace cudalab::transpose
