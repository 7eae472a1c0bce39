// Lab 06 launchers: each checks its launch shape (sides, stride), launches on `stream` and
// checks the launch (CUDALAB_CHECK_LAUNCH).
//
// `in` is a rows x cols row-major matrix; the transposes write `out` as cols x rows, the copies
// as rows x cols. Both buffers hold transpose::padded_elements(rows, cols) elements
// (transpose_index.cuh); every kernel here is guarded and touches only the matrices.
#pragma once

#include "transpose/transpose_index.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cudalab::transpose {

struct launch_dims {
  dim3 grid;
  dim3 block;
};

// Largest side the lab accepts: 16384 x 16384 doubles are 2 GiB a buffer.
inline constexpr std::size_t max_side = 16384;

// Throws cudalab::usage_error for a side of 0 or above max_side.
void check_sides(std::size_t rows, std::size_t cols);
// Throws usage_error for a stride outside min_stride..max_stride.
void check_stride(unsigned stride);
// ceil(cols/side) x ceil(rows/side) blocks of 32 x block_rows threads (block_rows 8 or 32; side
// 32, or 64 for tile64_rows).
launch_dims tile_dims(std::size_t rows, std::size_t cols, unsigned block_rows,
                      unsigned side = tile_dim);

using float_launcher = launch_dims (*)(const float* in, float* out, std::size_t rows,
                                       std::size_t cols, cudaStream_t stream);
using double_launcher = launch_dims (*)(const double* in, double* out, std::size_t rows,
                                        std::size_t cols, cudaStream_t stream);

// BASELINE: out = in through 32 x 8 blocks, four elements a thread: every load and store
// coalesced: the transposes' roof in sectors (their time can pass it: lab 06's README).
launch_dims launch_copy(const float* in, float* out, std::size_t rows, std::size_t cols,
                        cudaStream_t stream);
// BASELINE: the same copy with __restrict__ pointers, so that its four loads need not wait for
// the stores between them (the copy's SASS alternates LDG and STG).
launch_dims launch_copy_restrict(const float* in, float* out, std::size_t rows, std::size_t cols,
                                 cudaStream_t stream);
// NAIVE: reads rows (coalesced), writes columns: a store request's 32 lanes land `rows`
// floats apart, 32 sectors.
launch_dims launch_naive_row_read(const float* in, float* out, std::size_t rows, std::size_t cols,
                                  cudaStream_t stream);
// NAIVE: reads columns, writes rows (coalesced): a load request touches 32 sectors.
launch_dims launch_naive_col_read(const float* in, float* out, std::size_t rows, std::size_t cols,
                                  cudaStream_t stream);
// NAIVE: a 32 x 32 shared tile, coalesced both ways; reading a column of the tile hits one
// bank 32 times (32 x 32 threads).
launch_dims launch_shared_tile(const float* in, float* out, std::size_t rows, std::size_t cols,
                               cudaStream_t stream);
// FIXED: the tile padded to 33 columns: conflict-free (32 x 32 threads).
launch_dims launch_padded(const float* in, float* out, std::size_t rows, std::size_t cols,
                          cudaStream_t stream);
// FIXED: the tile XOR-swizzled: conflict-free with no padding (32 x 32 threads).
launch_dims launch_swizzled(const float* in, float* out, std::size_t rows, std::size_t cols,
                            cudaStream_t stream);
// FIXED: the padded tile moved by 32 x 8 threads, four elements each.
launch_dims launch_tile_rows(const float* in, float* out, std::size_t rows, std::size_t cols,
                             cudaStream_t stream);
// FIXED: a padded 64 x 64 tile moved by 32 x 8 threads, 16 elements each: four times
// tile_rows's loads in flight a thread, the same traffic.
launch_dims launch_tile64_rows(const float* in, float* out, std::size_t rows, std::size_t cols,
                               cudaStream_t stream);
// FIXED: the 64 x 64 tile moved in 16-byte chunks both ways (LDG.128, STS.128, 4 LDS, STG.128),
// its chunks swizzled (chunked_tile_word): no bank conflict; 4-byte accesses on a side whose rows
// do not start on 16 bytes. The blocks take the tiles down the columns (column_order_tile).
launch_dims launch_tile64_vec4(const float* in, float* out, std::size_t rows, std::size_t cols,
                               cudaStream_t stream);
// FIXED: the same kernel with the blocks taking the tiles along the rows.
launch_dims launch_tile64_vec4_row_order(const float* in, float* out, std::size_t rows,
                                         std::size_t cols, cudaStream_t stream);
// NAIVE and FIXED in 8-byte elements: the plain and the padded tile of doubles.
launch_dims launch_shared_tile_double(const double* in, double* out, std::size_t rows,
                                      std::size_t cols, cudaStream_t stream);
launch_dims launch_padded_double(const double* in, double* out, std::size_t rows, std::size_t cols,
                                 cudaStream_t stream);
// SWEEP: the copy (32 x 8 threads, four elements each) staged through shared memory with a
// warp's lanes `stride` words apart: every shared store and load is a gcd(stride, 32)-way
// bank conflict, and the global traffic is the copy's.
launch_dims launch_shared_stride(const float* in, float* out, std::size_t rows, std::size_t cols,
                                 unsigned stride, cudaStream_t stream);

}  // namespace cudalab::transpose
