// Index arithmetic of lab 08 (register tiling: C = A B of n x n row-major floats, several
// outputs a thread), shared by the kernels (device) and the access model (host), so that a
// prediction walks exactly the addresses and shared-memory words the kernels touch.
//
// Every block-tiled kernel of the lab works the same way. A block owns a BM x BN tile of C and
// walks the inner dimension BK columns at a time. At each step its threads copy the A tile
// (BM x BK) and the B tile (BK x BN) into shared memory in "slots" of `vec` consecutive floats
// of one row, slot s going to thread s mod threads; then each thread takes its products from
// the tiles into registers. The functions take plain integers (block, thread, slot, step),
// never blockIdx/threadIdx, so the model can call them for any lane of any warp.
#pragma once

#include "matmul/matmul_index.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::matmul {

// The shape of one block-tiled kernel, the same numbers as its template arguments.
struct block_tiling {
  unsigned bm = 0, bn = 0, bk = 0;  // the block's tile of C (bm x bn) and its inner step
  unsigned tm = 1, tn = 1;          // a thread's outputs: tm rows x tn columns (a warp sub-tile
                                    // for the warp-tiled kernel, which repeats it)
  unsigned threads = 0;             // a block's threads (1D)
  unsigned vec = 1;                 // floats a load slot moves: 1, or 4 (16-byte loads)
  bool a_transposed = false;        // the A tile is stored k-major (As[k][m]) in shared memory
  // Warp-tiled kernels only: each warp owns a wm x wn tile of the block's, walked in
  // wm_iter x wn_iter sub-tiles of (wm/wm_iter) x (wn/wn_iter), a tm x tn block a thread each.
  unsigned wm = 0, wn = 0, wn_iter = 1;
  unsigned wm_iter() const { return wm && wn ? wm * wn / (32 * tm * tn * wn_iter) : 1; }
  unsigned outputs_per_thread() const { return bm * bn / threads; }
};

// Load slots of a tile of `rows` x `width` floats in slots of `vec`: slot s is row s / (width /
// vec), first column (s mod (width / vec)) vec.
__host__ __device__ inline unsigned slot_row(unsigned slot, unsigned width, unsigned vec) {
  return slot / (width / vec);
}
__host__ __device__ inline unsigned slot_col(unsigned slot, unsigned width, unsigned vec) {
  return slot % (width / vec) * vec;
}
// Slot i of thread t.
__host__ __device__ inline unsigned thread_slot(unsigned thread, unsigned i, unsigned threads) {
  return thread + i * threads;
}

// The first row and column of the C tile of block (bx, by).
__host__ __device__ inline std::size_t block_first_row(unsigned block_y, unsigned bm) {
  return static_cast<std::size_t>(block_y) * bm;
}
__host__ __device__ inline std::size_t block_first_col(unsigned block_x, unsigned bn) {
  return static_cast<std::size_t>(block_x) * bn;
}
// cp_async_pipeline's order of C tiles: block b (blockIdx.y gx + blockIdx.x, the order blocks
// are started in, roughly) takes the tiles of `group` rows of tiles column by column, then the
// next `group` rows. The blocks resident at once then cover a few rows and columns of tiles,
// whose A rows and B columns each serve several of them from L2, instead of one long row of
// tiles that reads all of B. A one-to-one map of the grid onto itself (the last group may have
// fewer rows), so the counts of the launch are those of the plain order.
struct tile_position {
  unsigned x, y;  // the tile's column and row, in tiles
};
__host__ __device__ inline tile_position grouped_tile(unsigned block_x, unsigned block_y,
                                                      unsigned grid_x, unsigned grid_y,
                                                      unsigned group) {
  const unsigned block = block_y * grid_x + block_x;
  const unsigned first_row = block / (group * grid_x) * group;
  const unsigned rows = grid_y - first_row < group ? grid_y - first_row : group;
  const unsigned in_group = block % (group * grid_x);
  return {in_group / rows, first_row + in_group % rows};
}
inline constexpr unsigned pipeline_block_group = 8;

// The inner-dimension index of column c (A) or row c (B) of the tiles at step t.
__host__ __device__ inline std::size_t step_index(unsigned step, unsigned bk, unsigned c) {
  return static_cast<std::size_t>(step) * bk + c;
}
__host__ __device__ inline unsigned inner_steps(std::size_t n, unsigned bk) {
  return static_cast<unsigned>((n + bk - 1) / bk);
}

// 16-byte global loads and stores need every row to start on a 16-byte boundary (n a multiple
// of 4: cudaMalloc's base is 256-byte aligned) so that a slot of 4 floats is either wholly
// inside the matrix or wholly outside; otherwise the kernels take 4-byte loads, one a float.
__host__ __device__ inline bool rows_are_16_byte_aligned(std::size_t n) { return n % 4 == 0; }

// cp_async_pipeline copies B by 16-byte cp.async only when every row of B starts on a 32-byte
// sector boundary (n a multiple of 8), and by 4-byte copies otherwise. At n % 8 == 4 every other
// row starts 16 bytes into a sector, and the L1's sector count (ld_sectors) of a 16-byte cp.async
// on such rows was measured different both from the sectors its lanes touch and from its
// bytes / 32 (n = 1028 on an H200: 2.83111e6 measured); that rule is unknown, so the kernel takes
// the 4-byte copies there, whose count is the sectors they touch (measured exact at n = 77 and
// 1001). A's loads keep rows_are_16_byte_aligned.
__host__ __device__ inline bool rows_are_32_byte_aligned(std::size_t n) { return n % 8 == 0; }

// Shared words of the tiles. A row-major: As[r][c] at r bk + c; A transposed: As[c][r] at
// c bm + r. B row-major: Bs[r][c] at r bn + c, after the A tile (bm bk words on).
__host__ __device__ inline unsigned a_word(unsigned r, unsigned c, unsigned bm, unsigned bk,
                                           bool transposed) {
  return transposed ? c * bm + r : r * bk + c;
}
__host__ __device__ inline unsigned b_word(unsigned r, unsigned c, unsigned bm, unsigned bn,
                                           unsigned bk) {
  return bm * bk + r * bn + c;
}

// coarse_1d: thread t computes tm rows of one column: column t mod bn, rows (t / bn) tm + i.
__host__ __device__ inline unsigned coarse_col(unsigned thread, unsigned bn) { return thread % bn; }
__host__ __device__ inline unsigned coarse_row(unsigned thread, unsigned bn, unsigned tm,
                                               unsigned i) {
  return thread / bn * tm + i;
}

// register_2d and vectorized: thread t computes a tm x tn block: rows (t / (bn/tn)) tm + i,
// columns (t mod (bn/tn)) tn + j.
__host__ __device__ inline unsigned block2d_row(unsigned thread, unsigned bn, unsigned tm,
                                                unsigned tn, unsigned i) {
  return thread / (bn / tn) * tm + i;
}
__host__ __device__ inline unsigned block2d_col(unsigned thread, unsigned bn, unsigned tn,
                                                unsigned j) {
  return thread % (bn / tn) * tn + j;
}

// warp_tiled: warp w = t / 32 owns rows (w / (bn/wn)) wm .. and columns (w mod (bn/wn)) wn ..
// of the block's tile; lane l of it, in sub-tile (mi, ni), computes rows
// mi (wm/wm_iter) + (l / ((wn/wn_iter)/tn)) tm + i and columns
// ni (wn/wn_iter) + (l mod ((wn/wn_iter)/tn)) tn + j of the warp's tile.
__host__ __device__ inline unsigned warp_tile_row(unsigned thread, unsigned bn, unsigned wm,
                                                  unsigned wn, unsigned wm_iter, unsigned wn_iter,
                                                  unsigned tm, unsigned tn, unsigned mi,
                                                  unsigned i) {
  const unsigned warp = thread / 32, lane = thread % 32;
  const unsigned sub_n = wn / wn_iter;
  return warp / (bn / wn) * wm + mi * (wm / wm_iter) + lane / (sub_n / tn) * tm + i;
}
__host__ __device__ inline unsigned warp_tile_col(unsigned thread, unsigned bn, unsigned wn,
                                                  unsigned wn_iter, unsigned tn, unsigned ni,
                                                  unsigned j) {
  const unsigned warp = thread / 32, lane = thread % 32;
  const unsigned sub_n = wn / wn_iter;
  return warp % (bn / wn) * wn + ni * sub_n + lane % (sub_n / tn) * tn + j;
}

// cp_async_pipeline's A tile, in one of two layouts (pipeline_conflict_free_a in
// register_tiling_kernels.cuh says which a configuration takes).
//   warp_tiled's (conflict_free false): slot s is row s / (BK / 4), columns (s mod (BK / 4)) 4..;
//     the tile's column k holds row r at word k BM + r. At BK = 16 a warp's 32 lanes cover 8 rows
//     of 64 bytes, and its transposed store of one float a lane lands on 8 rows: 8 banks for 32
//     lanes, 4-way conflicts (2-way at BK = 8).
//   conflict-free: 2 lanes a row (slot s: 8-float group s / (2 BM) of row (s mod 2 BM) / 2, half
//     s mod 2), 16 rows a warp, each lane pair one 32-byte sector; each column padded to BM + 4
//     words, so that a pair's two halves, 4 columns apart, fall 16 banks apart and the 32 lanes
//     cover the 32 banks once. 4 consecutive rows stay consecutive and 16-byte aligned (the inner
//     loop's LDS.128 keep their banks). The price: a warp's A load touches 16 rows of 32 bytes
//     instead of 8 of 64, and at a side that is no multiple of 8 more sectors.
// The B tile follows the A tile. (BM a multiple of 32, BK of 8.)
__host__ __device__ inline unsigned pipeline_a_slot_row(unsigned slot, unsigned bm, unsigned bk,
                                                        bool conflict_free) {
  return conflict_free ? slot % (2 * bm) / 2 : slot_row(slot, bk, 4);
}
__host__ __device__ inline unsigned pipeline_a_slot_col(unsigned slot, unsigned bm, unsigned bk,
                                                        bool conflict_free) {
  return conflict_free ? slot / (2 * bm) * 8 + slot % 2 * 4 : slot_col(slot, bk, 4);
}
__host__ __device__ constexpr unsigned pipeline_a_pitch(unsigned bm, bool conflict_free) {
  return conflict_free ? bm + 4 : bm;
}
__host__ __device__ inline unsigned pipeline_a_word(unsigned r, unsigned c, unsigned bm,
                                                    bool conflict_free) {
  return c * pipeline_a_pitch(bm, conflict_free) + r;
}
__host__ __device__ inline unsigned pipeline_b_word(unsigned r, unsigned c, unsigned bm,
                                                    unsigned bn, unsigned bk, bool conflict_free) {
  return pipeline_a_pitch(bm, conflict_free) * bk + r * bn + c;
}

// cp_async_pipeline's shared memory holds `stages` copies of the two tiles (pipeline_a_word's and
// pipeline_b_word's layout, pipeline_stage_words each), one after the other; inner step s uses
// copy s mod stages, which starts stage_of(s, stages) pipeline_stage_words on.
__host__ __device__ constexpr unsigned pipeline_stage_words(unsigned bm, unsigned bn, unsigned bk,
                                                            bool conflict_free) {
  return pipeline_a_pitch(bm, conflict_free) * bk + bk * bn;
}
__host__ __device__ constexpr unsigned stage_of(unsigned step, unsigned stages) {
  return step % stages;
}

// pad_to_64: the side of the padded copies, and the kernel's shape: 32 x 8 threads compute a
// 32 x 32 tile of C, four rows a thread (ty + 8 i), from 32 x 32 tiles; no guards, since the
// padded side is a multiple of the tile.
inline constexpr unsigned pad_multiple = 64;
__host__ __device__ inline std::size_t padded_side(std::size_t n) {
  return (n + pad_multiple - 1) / pad_multiple * pad_multiple;
}
inline constexpr unsigned pad_tile = 32;
inline constexpr unsigned pad_block_y = 8;
inline constexpr unsigned pad_outputs = pad_tile / pad_block_y;  // 4 a thread
__host__ __device__ inline unsigned pad_row(unsigned thread_y, unsigned i) {
  return thread_y + i * pad_block_y;
}
// The copy kernels' blocks: 32 x 8 threads, one element a thread.
inline constexpr unsigned copy_block_x = 32, copy_block_y = 8;

}  // namespace cudalab::matmul
