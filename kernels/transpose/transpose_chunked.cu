// tile64_vec4: the transpose with 16-byte global accesses both ways.
//
// Every other transpose of the lab moves 4 bytes a lane, and on some cards its coalesced
// requests still fall short of what the copy roof moves with 16-byte ones (docs/benchmarks.md).
// Here a lane loads 4 consecutive floats of an input row (LDG.128), stores them as one chunk of
// the shared tile (STS.128), and after the barrier reads 4 consecutive rows of one tile column
// (4 LDS, one float each) to store them as 4 consecutive floats of an output row (STG.128). The
// tile's chunks are swizzled (chunked_tile_word) so that both sides are free of bank conflicts.
// A warp loads 2 rows of 256 bytes and stores 4 rows of 128 bytes (transpose_index.cuh says why
// the stores cannot take 256 bytes without a conflict), and the blocks take their tiles down the
// columns of tiles (column_order_tile): if blocks start roughly in the order of their index (a
// hypothesis: CUDA promises no order), the blocks started together write adjacent pieces of the
// same output rows. tile64_vec4_row_order is the same kernel with the blocks taking the tiles
// along the rows, as every other kernel of the lab does: the same exact counts (every tile
// once: requests, sectors, shared wavefronts), a different time in the one H200 run that times
// both (labs/06-bank-conflicts/README.md, question 10).
// A 16-byte access needs its row to start on 16 bytes (chunks_fit: both sides multiples of 4);
// at other sides the launcher runs tile64_rows's kernel instead, 4 bytes a lane. The guards stay:
// a side that is a multiple of 4 need not be one of 64.
//
//   cudalab run 06 --variant tile64_rows,tile64_vec4,tile64_vec4_row_order --size 8192
#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::transpose {

namespace {

template <bool ColumnOrder>
__global__ void transpose_tile64_vec4_kernel(const float* in, float* out, unsigned rows,
                                             unsigned cols) {
  __shared__ __align__(16) float tile[wide_tile_dim * wide_tile_dim];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const tile_position t = ColumnOrder
                              ? column_order_tile(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y)
                              : tile_position{blockIdx.x, blockIdx.y};
#pragma unroll
  for (unsigned j = 0; j < chunk_steps; ++j) {
    const unsigned lr = load_chunk_row(tx, ty, j), lc = load_chunk_first_col(tx);
    const std::size_t r = tile_row(t.y, lr, wide_tile_dim);
    const std::size_t c = tile_col(t.x, lc, wide_tile_dim);
    if (r < rows && c < cols)
      *reinterpret_cast<float4*>(&tile[chunked_tile_word(lr, lc)]) =
          *reinterpret_cast<const float4*>(in + element_index(r, c, cols));
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < chunk_steps; ++j) {
    // Output row c (input column c) of the tile, its elements from input rows r0 .. r0 + 3.
    const unsigned lc = store_chunk_row(tx, ty, j), lr0 = store_chunk_first_col(tx, ty, j);
    const std::size_t c = tile_col(t.x, lc, wide_tile_dim);
    const std::size_t r0 = tile_row(t.y, lr0, wide_tile_dim);
    // Through __stcs, one STG.E.EF.128 (evict-first: the output is not read again here): written
    // as a float4 assignment, the four values read one by one went out as four 4-byte stores
    // (STG.E; cuobjdump -sass, CUDA 13.0), a quarter of the bytes a request.
    if (c < cols && r0 < rows)
      __stcs(
          reinterpret_cast<float4*>(out + element_index(c, r0, rows)),
          make_float4(tile[chunked_tile_word(lr0, lc)], tile[chunked_tile_word(lr0 + 1, lc)],
                      tile[chunked_tile_word(lr0 + 2, lc)], tile[chunked_tile_word(lr0 + 3, lc)]));
  }
}

template <bool ColumnOrder>
launch_dims launch_chunked(const float* in, float* out, std::size_t rows, std::size_t cols,
                           cudaStream_t stream) {
  if (!chunks_fit(rows, cols)) return launch_tile64_rows(in, out, rows, cols, stream);
  const launch_dims d = tile_dims(rows, cols, strip_rows, wide_tile_dim);
  transpose_tile64_vec4_kernel<ColumnOrder><<<d.grid, d.block, 0, stream>>>(
      in, out, static_cast<unsigned>(rows), static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

launch_dims launch_tile64_vec4(const float* in, float* out, std::size_t rows, std::size_t cols,
                               cudaStream_t stream) {
  return launch_chunked<true>(in, out, rows, cols, stream);
}

launch_dims launch_tile64_vec4_row_order(const float* in, float* out, std::size_t rows,
                                         std::size_t cols, cudaStream_t stream) {
  return launch_chunked<false>(in, out, rows, cols, stream);
}

}  // namespace cudalab::transpose
