// Lab 05 launchers: each checks its launch shape (block a power of two in 32..1024, 1 <= n <=
// max_elements), launches on a stream and checks the launch (CUDALAB_CHECK_LAUNCH).
//
// The tree kernels write one partial sum a block into `partial` (tree_blocks or
// first_add_blocks of them); the caller finishes them on the CPU, or on the GPU with
// launch_finish. launch_grid_stride adds into *out with one atomicAdd a block, so *out must be
// zero before the launch. Every kernel is instantiated for float and int.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cudalab::reduction {

struct launch_dims {
  unsigned grid = 0;
  unsigned block = 0;
  std::size_t shared_bytes = 0;
};

// Throw cudalab::usage_error with the accepted range.
void check_block(unsigned block);
void check_size(std::size_t n);

// NAIVE: interleaved addressing, `tid % (2*s) == 0` as a real (not predicated) branch.
template <typename T>
launch_dims launch_interleaved_divergent(const T* in, T* partial, std::size_t n, unsigned block,
                                         cudaStream_t stream);
// NAIVE: interleaved addressing with index = 2*s*tid: no divergence, shared bank conflicts.
template <typename T>
launch_dims launch_interleaved_strided(const T* in, T* partial, std::size_t n, unsigned block,
                                       cudaStream_t stream);
// FIXED: sequential addressing (stride halves from blockDim/2).
template <typename T>
launch_dims launch_sequential(const T* in, T* partial, std::size_t n, unsigned block,
                              cudaStream_t stream);
// FIXED: sequential addressing, each thread adds two elements while loading (half the blocks).
template <typename T>
launch_dims launch_first_add(const T* in, T* partial, std::size_t n, unsigned block,
                             cudaStream_t stream);
// FIXED: first add during load, shared tree down to 64, the last warp with __shfl_down_sync.
template <typename T>
launch_dims launch_warp_shuffle(const T* in, T* partial, std::size_t n, unsigned block,
                                cudaStream_t stream);
// Second pass: one block of finish_block threads folds m partial sums into out[0].
template <typename T>
launch_dims launch_finish(const T* partial, T* out, std::size_t m, cudaStream_t stream);
// FIXED: bounded grid, 16-byte vector loads in a grid-stride loop, warp shuffles, one
// atomicAdd into *out a block (*out must be zero first).
template <typename T>
launch_dims launch_grid_stride(const T* in, T* out, std::size_t n, unsigned block,
                               cudaStream_t stream);

// BASELINE: cub::DeviceReduce::Sum. Temporary storage is the caller's (allocate it once).
std::size_t cub_sum_temp_bytes(std::size_t n);
void launch_cub_sum(const float* in, float* out, std::size_t n, void* temp, std::size_t temp_bytes,
                    cudaStream_t stream);

}  // namespace cudalab::reduction
