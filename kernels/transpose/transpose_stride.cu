// The shared-memory stride sweep: the copy staged through shared memory with a warp's lanes
// `stride` words apart, the shared twin of lab 04's global stride sweep.
//
// Lane l of the warp of thread row ty stores its element at word (32 ty + l) stride, waits for
// its warp, and loads it back. Word w sits in bank w mod 32, so lanes l and l + 32/g share a
// bank (g = gcd(stride, 32)) and every store and load needs g wavefronts: 1 for odd strides, 32
// for stride 32. The buffer is the same size at every stride (32 KB), so occupancy stays the
// same along the sweep and only the conflicts change.
#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::transpose {

__global__ void shared_stride_copy_kernel(const float* in, float* out, unsigned rows, unsigned cols,
                                          unsigned stride) {
  __shared__ float buffer[stride_buffer_words];
  const unsigned word = stride_word(threadIdx.y, threadIdx.x, stride);
  const std::size_t c = tile_col(blockIdx.x, threadIdx.x);
#pragma unroll
  for (unsigned j = 0; j < steps_of(strip_rows); ++j) {
    const std::size_t r = tile_row(blockIdx.y, local_row(threadIdx.y, j, strip_rows));
    const bool inside = r < rows && c < cols;
    if (inside) buffer[word] = in[element_index(r, c, cols)];
    // The warp barrier orders the store before the load (and the load before the next step's
    // store), so the compiler keeps both shared accesses instead of forwarding the value.
    __syncwarp();
    const float v = inside ? buffer[word] : 0.0f;
    __syncwarp();
    if (inside) out[element_index(r, c, cols)] = v;
  }
}

launch_dims launch_shared_stride(const float* in, float* out, std::size_t rows, std::size_t cols,
                                 unsigned stride, cudaStream_t stream) {
  check_stride(stride);
  const launch_dims d = tile_dims(rows, cols, strip_rows);
  shared_stride_copy_kernel<<<d.grid, d.block, 0, stream>>>(in, out, static_cast<unsigned>(rows),
                                                            static_cast<unsigned>(cols), stride);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::transpose
