// Lab 07, the bugs racecheck, synccheck and initcheck find.
//
//   blur_no_sync_kernel       a 3-point blur through a shared tile (the block's elements and one
//                             halo each side), with no barrier between filling the tile and
//                             reading the neighbours' slots: a thread at a warp's edge may read a
//                             slot the next warp has not written yet (racecheck: a read-after-
//                             write hazard on shared memory)
//   blur_tiled_kernel         the same with __syncthreads() between the two
//   pair_swap_divergent_kernel  neighbours exchange scaled values through shared memory; the
//                             first half of the block's warps wait at a __syncthreads() inside a
//                             branch, the rest at the next one (synccheck: threads of a block at
//                             different barriers)
//   pair_swap_kernel          the branch picks the value; one barrier after it
//   block_sums_kernel, sum_partials_kernel  a two-pass sum; the buggy launcher runs the first
//                             pass on n / t blocks, so the second reads a partial sum nobody wrote
//                             (initcheck)
#include "debugging/debugging_index.cuh"
#include "debugging/debugging_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::debugging {

// The tile: slot t + 1 holds the block's element t; slots 0 and blockDim.x + 1 the halo.
__device__ inline void fill_blur_tile(float* tile, const float* in, std::size_t n) {
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = first + threadIdx.x;
  tile[threadIdx.x + 1] = in[clamped(i, n)];
  if (threadIdx.x == 0) tile[0] = in[clamped(left_of(first), n)];
  if (threadIdx.x == blockDim.x - 1) tile[blockDim.x + 1] = in[clamped(first + blockDim.x, n)];
}

__global__ void blur_no_sync_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float tile[];
  fill_blur_tile(tile, in, n);
  // The bug: no __syncthreads() here.
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned t = threadIdx.x + 1;
  if (i < n) out[i] = blur3(tile[t - 1], tile[t], tile[t + 1]);
}

__global__ void blur_tiled_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float tile[];
  fill_blur_tile(tile, in, n);
  __syncthreads();
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned t = threadIdx.x + 1;
  if (i < n) out[i] = blur3(tile[t - 1], tile[t], tile[t + 1]);
}

// The bug: __syncthreads() in a branch that is not uniform across the block, which the CUDA
// Programming Guide leaves undefined (synccheck reports it). Both calls compile to BAR.SYNC 0,
// the same hardware barrier: the two halves of the block complete it together, one half from
// each call. Whole warps take each side here (lab 07's barrier probes also split a warp's lanes
// between the two calls: labs/07-debugging/probes/barrier_probes.cu). This form runs to the
// end because threads that exit release a barrier the others still wait at (PTX `exit`): the
// first half's second wait is released once the second half has exited.
__global__ void pair_swap_divergent_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float tile[];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned t = threadIdx.x;
  tile[t] = i < n ? pair_scaled(in[i], i) : 0.0f;
  const unsigned warps = blockDim.x / warpSize;
  if (t / warpSize < warps / 2) __syncthreads();  // the first half of the warps wait here...
  __syncthreads();                                // ...and the rest here
  if (i < n) out[i] = tile[t ^ 1u];
}

__global__ void pair_swap_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float tile[];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned t = threadIdx.x;
  tile[t] = i < n ? pair_scaled(in[i], i) : 0.0f;
  __syncthreads();
  if (i < n) out[i] = tile[t ^ 1u];
}

// partial[blockIdx.x] = the sum of the block's elements (a shared-memory tree, block a power
// of two).
__global__ void block_sums_kernel(const float* in, float* partial, std::size_t n) {
  extern __shared__ float sums[];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}

// One thread adds the partial sums in double.
__global__ void sum_partials_kernel(const float* partial, std::size_t count, double* total) {
  double sum = 0;
  for (std::size_t b = 0; b < count; ++b) sum += partial[b];
  *total = sum;
}

namespace {

dim3 blocks_for(std::size_t blocks) {
  if (blocks == 0) blocks = 1;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  return dim3(static_cast<unsigned>(blocks));
}

using array_kernel = void (*)(const float*, float*, std::size_t);

launch_dims launch_tiled(array_kernel kernel, std::size_t tile_floats, const float* in, float* out,
                         std::size_t n, unsigned block, cudaStream_t stream) {
  const launch_dims d{blocks_for((n + block - 1) / block), dim3(block)};
  kernel<<<d.grid, d.block, tile_floats * sizeof(float), stream>>>(in, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

void check_power_of_two(unsigned block) {
  check_block(block);
  if ((block & (block - 1)) != 0)
    throw usage_error("block of " + std::to_string(block) +
                      " threads: the block sums halve the block, use a power of two");
}

launch_dims launch_sums(std::size_t first_pass_blocks, const float* in, float* partial,
                        double* total, std::size_t n, unsigned block, cudaStream_t stream) {
  const launch_dims d{blocks_for(first_pass_blocks), dim3(block)};
  if (first_pass_blocks > 0) {
    block_sums_kernel<<<d.grid, d.block, block * sizeof(float), stream>>>(in, partial, n);
    CUDALAB_CHECK_LAUNCH();
  }
  sum_partials_kernel<<<1, 1, 0, stream>>>(partial, partial_count(n, block), total);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

launch_dims launch_blur_no_sync(const float* in, float* out, std::size_t n, unsigned block,
                                cudaStream_t stream) {
  check_block(block);
  return launch_tiled(blur_no_sync_kernel, block + 2, in, out, n, block, stream);
}

launch_dims launch_blur_tiled(const float* in, float* out, std::size_t n, unsigned block,
                              cudaStream_t stream) {
  check_block(block);
  return launch_tiled(blur_tiled_kernel, block + 2, in, out, n, block, stream);
}

launch_dims launch_pair_swap_divergent(const float* in, float* out, std::size_t n, unsigned block,
                                       cudaStream_t stream) {
  check_block(block, 32);
  return launch_tiled(pair_swap_divergent_kernel, block, in, out, n, block, stream);
}

launch_dims launch_pair_swap(const float* in, float* out, std::size_t n, unsigned block,
                             cudaStream_t stream) {
  check_block(block, 32);
  return launch_tiled(pair_swap_kernel, block, in, out, n, block, stream);
}

launch_dims launch_sum_partials_underlaunch(const float* in, float* partial, double* total,
                                            std::size_t n, unsigned block, cudaStream_t stream) {
  check_power_of_two(block);
  return launch_sums(n / block, in, partial, total, n, block, stream);
}

launch_dims launch_sum_partials(const float* in, float* partial, double* total, std::size_t n,
                                unsigned block, cudaStream_t stream) {
  check_power_of_two(block);
  return launch_sums(partial_count(n, block), in, partial, total, n, block, stream);
}

}  // namespace cudalab::debugging
