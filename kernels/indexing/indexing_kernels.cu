// Lab 01 kernels: how a thread finds its element, and what goes wrong when it gets it wrong.
//
//   affine_guarded_kernel     i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) ...
//   affine_unguarded_kernel   the same without the guard: the tail block writes out of bounds
//   affine_grid_stride_kernel a bounded grid; each thread loops with stride gridDim*blockDim
//   affine_int_index_kernel   the index in an int: past element 2^31 it wraps negative (run
//                             on a window of a launch that large; wrapped threads only record
//                             the wrap, so the demonstration corrupts nothing)
//   affine_int64_index_kernel the same window with a 64-bit index
//   matrix_x_rows_kernel      threadIdx.x picks the row: a warp reads one float from each of
//                             32 rows (32 sectors a request)
//   matrix_x_cols_kernel      threadIdx.x picks the column: a warp reads 32 consecutive floats
//                             (4 sectors a request)
// The over- and under-launching variants reuse affine_guarded_kernel with another grid: the
// guard keeps the over-launch correct (the extra blocks only cost scheduling), and no guard
// can save the under-launch, whose last n % t elements no thread is launched for.
#include "indexing/indexing_index.cuh"
#include "indexing/indexing_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::indexing {

__global__ void affine_guarded_kernel(const float* in, float* out, std::size_t n, float a,
                                      float b) {
  const std::size_t i = global_index_1d(this_thread());
  if (i < n) out[i] = affine(in[i], a, b);
}

__global__ void affine_unguarded_kernel(const float* in, float* out, std::size_t n, float a,
                                        float b) {
  const std::size_t i = global_index_1d(this_thread());
  (void)n;  // the bug: n is never consulted
  out[i] = affine(in[i], a, b);
}

__global__ void affine_grid_stride_kernel(const float* in, float* out, std::size_t n, float a,
                                          float b) {
  const thread_coord c = this_thread();
  for (std::size_t i = global_index_1d(c); i < n; i += grid_stride(c)) out[i] = affine(in[i], a, b);
}

__global__ void affine_int_index_kernel(const float* in, float* out, index_window w,
                                        index_wrap_record* wraps, float a, float b) {
  const int i = global_index_int(this_thread(), w.first_block);
  if (i < w.n) {  // a wrapped, negative i passes a bounds guard against a 64-bit n
    const std::int64_t local = i - w.first_element;
    if (local < 0) {
      // The wrapped threads of a warp that run together: the lowest lane reports them all, and
      // its index is their lowest.
      const unsigned together = __activemask();
      if ((threadIdx.x & 31u) == static_cast<unsigned>(__ffs(together) - 1)) {
        atomicAdd(&wraps->threads, static_cast<unsigned long long>(__popc(together)));
        atomicMin(&wraps->lowest_index, i);
      }
      return;
    }
    out[local] = affine(in[local], a, b);
  }
}

__global__ void affine_int64_index_kernel(const float* in, float* out, index_window w, float a,
                                          float b) {
  const std::int64_t i = global_index_64(this_thread(), w.first_block);
  if (i < w.n) out[i - w.first_element] = affine(in[i - w.first_element], a, b);
}

__global__ void matrix_x_rows_kernel(const float* in, float* out, std::size_t side, float a,
                                     float b) {
  const thread_coord c = this_thread();
  const std::size_t row = row_x_rows(c), col = col_x_rows(c);
  if (row < side && col < side) out[row * side + col] = affine(in[row * side + col], a, b);
}

__global__ void matrix_x_cols_kernel(const float* in, float* out, std::size_t side, float a,
                                     float b) {
  const thread_coord c = this_thread();
  const std::size_t row = row_x_cols(c), col = col_x_cols(c);
  if (row < side && col < side) out[row * side + col] = affine(in[row * side + col], a, b);
}

namespace {

void check_block(unsigned block) {
  if (block == 0 || block > 1024)
    throw usage_error("block of " + std::to_string(block) + " threads: use 1..1024");
}

dim3 grid_1d(std::size_t blocks) {
  if (blocks == 0) blocks = 1;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  return dim3(static_cast<unsigned>(blocks));
}

// Both 2D mappings launch the same grid over a square matrix; only the index functions differ.
launch_dims matrix_dims(std::size_t side, unsigned threads) {
  if (threads % 32 != 0 || threads == 0 || threads > 1024)
    throw usage_error("the 2D variants need a block of 32..1024 threads in multiples of 32 (got " +
                      std::to_string(threads) + ")");
  const dim3 block(32, threads / 32);
  const std::size_t along_x = (side + block.x - 1) / block.x;
  const std::size_t along_y = (side + block.y - 1) / block.y;
  if (along_y > 65535) throw usage_error("matrix too large for a 2D grid (grid.y > 65535)");
  return {dim3(static_cast<unsigned>(along_x), static_cast<unsigned>(along_y)), block};
}

}  // namespace

namespace {

// Launches one of the 1D affine kernels on `blocks` blocks of `block` (checked) threads.
launch_dims launch_affine_1d(void (*kernel)(const float*, float*, std::size_t, float, float),
                             std::size_t blocks, const float* in, float* out, std::size_t n,
                             unsigned block, float a, float b, cudaStream_t stream) {
  const launch_dims d{grid_1d(blocks), dim3(block)};
  kernel<<<d.grid, d.block, 0, stream>>>(in, out, n, a, b);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

launch_dims launch_affine_overlaunch(const float* in, float* out, std::size_t n, unsigned block,
                                     float a, float b, cudaStream_t stream) {
  check_block(block);  // before the grid formula divides by it
  return launch_affine_1d(affine_guarded_kernel, grid_overlaunch(n, block), in, out, n, block, a, b,
                          stream);
}

launch_dims launch_affine_underlaunch(const float* in, float* out, std::size_t n, unsigned block,
                                      float a, float b, cudaStream_t stream) {
  check_block(block);  // before the grid formula divides by it
  const std::size_t blocks = grid_underlaunch(n, block);
  if (blocks == 0) return {dim3(0), dim3(block)};  // n < t: the bug launches nothing at all
  return launch_affine_1d(affine_guarded_kernel, blocks, in, out, n, block, a, b, stream);
}

launch_dims launch_affine_guarded(const float* in, float* out, std::size_t n, unsigned block,
                                  float a, float b, cudaStream_t stream) {
  check_block(block);  // before the grid formula divides by it
  return launch_affine_1d(affine_guarded_kernel, grid_ceil_div(n, block), in, out, n, block, a, b,
                          stream);
}

launch_dims launch_affine_unguarded(const float* in, float* out, std::size_t n, unsigned block,
                                    float a, float b, cudaStream_t stream) {
  check_block(block);  // before the grid formula divides by it
  return launch_affine_1d(affine_unguarded_kernel, grid_ceil_div(n, block), in, out, n, block, a, b,
                          stream);
}

launch_dims launch_affine_grid_stride(const float* in, float* out, std::size_t n, unsigned block,
                                      float a, float b, cudaStream_t stream) {
  check_block(block);  // before the grid formula divides by it
  return launch_affine_1d(affine_grid_stride_kernel, grid_stride_blocks(n, block), in, out, n,
                          block, a, b, stream);
}

namespace {

index_window checked_window(std::size_t size, unsigned block) {
  check_block(block);
  if (size == 0 || size > index_window_max)
    throw usage_error("the 32-bit index variants simulate a window of 1.." +
                      std::to_string(index_window_max) + " elements around element 2^31 (got " +
                      std::to_string(size) + ")");
  return overflow_window(size, block);
}

}  // namespace

launch_dims launch_affine_int_index(const float* in, float* out, std::size_t size, unsigned block,
                                    index_wrap_record* wraps, float a, float b,
                                    cudaStream_t stream) {
  const index_window w = checked_window(size, block);
  const launch_dims d{grid_1d(grid_ceil_div(size, block)), dim3(block)};
  affine_int_index_kernel<<<d.grid, d.block, 0, stream>>>(in, out, w, wraps, a, b);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_affine_int64_index(const float* in, float* out, std::size_t size, unsigned block,
                                      float a, float b, cudaStream_t stream) {
  const index_window w = checked_window(size, block);
  const launch_dims d{grid_1d(grid_ceil_div(size, block)), dim3(block)};
  affine_int64_index_kernel<<<d.grid, d.block, 0, stream>>>(in, out, w, a, b);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_matrix_x_rows(const float* in, float* out, std::size_t side, unsigned threads,
                                 float a, float b, cudaStream_t stream) {
  const launch_dims d = matrix_dims(side, threads);
  matrix_x_rows_kernel<<<d.grid, d.block, 0, stream>>>(in, out, side, a, b);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_matrix_x_cols(const float* in, float* out, std::size_t side, unsigned threads,
                                 float a, float b, cudaStream_t stream) {
  const launch_dims d = matrix_dims(side, threads);
  matrix_x_cols_kernel<<<d.grid, d.block, 0, stream>>>(in, out, side, a, b);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::indexing
