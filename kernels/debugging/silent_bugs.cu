// Lab 07, the bugs no tool reports: the answer is wrong and only a check of the answer (or
// cuda-gdb) finds why.
//
//   histogram_racy_kernel       bins[in[i]] += 1: a load, an add and a store; two threads of the
//                               same bin read the same count and one increment is lost. The race
//                               is on global memory, which racecheck does not watch.
//   histogram_atomic_kernel     atomicAdd on the global bins
//   histogram_privatised_kernel each block counts into 256 shared bins (shared atomics), then
//                               adds its bins to the global ones: 256 global atomics a block
//   scale_rows_swapped_kernel   row from x and column from y, while the grid spans the columns in
//                               x: elements land in the wrong place and some are never written
//   scale_rows_kernel           column from x, row from y
#include "debugging/debugging_index.cuh"
#include "debugging/debugging_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::debugging {

__global__ void histogram_racy_kernel(const unsigned char* in, unsigned* bins, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) bins[in[i]] += 1;
}

__global__ void histogram_atomic_kernel(const unsigned char* in, unsigned* bins, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i]], 1u);
}

__global__ void histogram_privatised_kernel(const unsigned char* in, unsigned* bins,
                                            std::size_t n) {
  __shared__ unsigned local[histogram_bins];
  for (unsigned b = threadIdx.x; b < histogram_bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < histogram_bins; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

__global__ void scale_rows_swapped_kernel(const float* in, float* out, std::size_t rows,
                                          std::size_t cols) {
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t col = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    const std::size_t at = row * cols + col;
    out[at] = scaled_plus_row(in[at], row);  // cuda-gdb: stop here
  }
}

__global__ void scale_rows_kernel(const float* in, float* out, std::size_t rows, std::size_t cols) {
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < rows && col < cols) {
    const std::size_t at = row * cols + col;
    out[at] = scaled_plus_row(in[at], row);
  }
}

namespace {

using histogram_kernel = void (*)(const unsigned char*, unsigned*, std::size_t);

launch_dims launch_histogram(histogram_kernel kernel, std::size_t max_blocks,
                             const unsigned char* in, unsigned* bins, std::size_t n, unsigned block,
                             cudaStream_t stream) {
  check_block(block);
  std::size_t blocks = (n + block - 1) / block;
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks == 0) blocks = 1;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  const launch_dims d{dim3(static_cast<unsigned>(blocks)), dim3(block)};
  kernel<<<d.grid, d.block, 0, stream>>>(in, bins, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

launch_dims launch_histogram_racy(const unsigned char* in, unsigned* bins, std::size_t n,
                                  unsigned block, cudaStream_t stream) {
  return launch_histogram(histogram_racy_kernel, ~std::size_t{0}, in, bins, n, block, stream);
}

launch_dims launch_histogram_atomic(const unsigned char* in, unsigned* bins, std::size_t n,
                                    unsigned block, cudaStream_t stream) {
  return launch_histogram(histogram_atomic_kernel, ~std::size_t{0}, in, bins, n, block, stream);
}

launch_dims launch_histogram_privatised(const unsigned char* in, unsigned* bins, std::size_t n,
                                        unsigned block, cudaStream_t stream) {
  return launch_histogram(histogram_privatised_kernel, privatised_max_blocks, in, bins, n, block,
                          stream);
}

launch_dims launch_scale_rows_swapped(const float* in, float* out, matrix_shape m, unsigned threads,
                                      cudaStream_t stream) {
  const launch_dims d = matrix_dims(m, threads);
  scale_rows_swapped_kernel<<<d.grid, d.block, 0, stream>>>(in, out, m.rows, m.cols);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_scale_rows(const float* in, float* out, matrix_shape m, unsigned threads,
                              cudaStream_t stream) {
  const launch_dims d = matrix_dims(m, threads);
  scale_rows_kernel<<<d.grid, d.block, 0, stream>>>(in, out, m.rows, m.cols);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::debugging
