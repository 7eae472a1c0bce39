// Lab 07, a launch that fails: the staged reverse asks for 64 KiB of dynamic shared memory, more
// than the 48 KiB a kernel may use before it opts in with cudaFuncSetAttribute. The launch
// returns cudaErrorInvalidValue and the kernel never runs.
//
//   chunk_reverse_kernel   each block copies a chunk of reverse_chunk floats into shared memory,
//                          then writes it back reversed (the last chunk: its own length)
// The three launchers differ only in what they do about the failure: nothing (the output keeps
// whatever it held), check it (CUDALAB_CHECK_LAUNCH throws at the launch), or opt in first.
#include "debugging/debugging_index.cuh"
#include "debugging/debugging_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::debugging {

__global__ void chunk_reverse_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float stage[];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * reverse_chunk;
  const std::size_t length = n - first < reverse_chunk ? n - first : reverse_chunk;
  for (std::size_t k = threadIdx.x; k < length; k += blockDim.x) stage[k] = in[first + k];
  __syncthreads();
  for (std::size_t k = threadIdx.x; k < length; k += blockDim.x)
    out[first + k] = stage[length - 1 - k];
}

namespace {

launch_dims reverse_dims(std::size_t n, unsigned block) {
  check_block(block);
  const std::size_t chunks = (n + reverse_chunk - 1) / reverse_chunk;
  if (chunks == 0 || chunks > 0x7fffffffu)
    throw usage_error("the staged reverse needs 1.." + std::to_string(0x7fffffffu) + " chunks of " +
                      std::to_string(reverse_chunk) + " floats (got " + std::to_string(chunks) +
                      ")");
  return {dim3(static_cast<unsigned>(chunks)), dim3(block)};
}

}  // namespace

launch_dims launch_chunk_reverse_unchecked(const float* in, float* out, std::size_t n,
                                           unsigned block, cudaStream_t stream) {
  const launch_dims d = reverse_dims(n, block);
  chunk_reverse_kernel<<<d.grid, d.block, reverse_chunk_bytes, stream>>>(in, out, n);
  // The bug: no CUDALAB_CHECK_LAUNCH(). The launch failed, and the error waits, unread.
  return d;
}

launch_dims launch_chunk_reverse_checked(const float* in, float* out, std::size_t n, unsigned block,
                                         cudaStream_t stream) {
  const launch_dims d = reverse_dims(n, block);
  chunk_reverse_kernel<<<d.grid, d.block, reverse_chunk_bytes, stream>>>(in, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_chunk_reverse(const float* in, float* out, std::size_t n, unsigned block,
                                 cudaStream_t stream) {
  const launch_dims d = reverse_dims(n, block);
  CUDALAB_CHECK_CUDA(cudaFuncSetAttribute(chunk_reverse_kernel,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(reverse_chunk_bytes)));
  chunk_reverse_kernel<<<d.grid, d.block, reverse_chunk_bytes, stream>>>(in, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::debugging
