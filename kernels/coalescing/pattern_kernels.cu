// Lab 04 kernels: the two access patterns the sweeps measure, on a plain float copy.
//
//   offset_copy_kernel    out[i + k] = in[i + k]. cudaMalloc returns 256-byte aligned memory,
//                         so for k = 0 a warp's 128 bytes fill 4 whole sectors; for any k that
//                         is not a multiple of 8 floats they straddle a fifth sector (5 a
//                         request): the cost of misalignment is one sector in four, not 2x.
//   stride_gather_kernel  out[i] = in[i * s]. A warp's loads span 128*s bytes: min(32, 4s)
//                         sectors a request, of which 128 bytes are used. From s = 8 on, every
//                         lane has a sector of its own and the useful fraction is 1/8.
// Stores are coalesced in both (4 sectors a request; for the offset copy, 5 when misaligned).
#include "coalescing/coalescing_index.cuh"
#include "coalescing/coalescing_kernels.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::coalescing {

__global__ void offset_copy_kernel(const float* in, float* out, std::size_t n, unsigned offset) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) out[offset_index(i, offset)] = in[offset_index(i, offset)];
}

__global__ void stride_gather_kernel(const float* in, float* out, std::size_t n, unsigned stride) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) out[i] = in[stride_index(i, stride)];
}

launch_dims launch_offset_copy(const float* in, float* out, std::size_t n, unsigned offset,
                               unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  offset_copy_kernel<<<d.grid, d.block, 0, stream>>>(in, out, n, offset);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_stride_gather(const float* in, float* out, std::size_t n, unsigned stride,
                                 unsigned block, cudaStream_t stream) {
  if (stride == 0) throw usage_error("stride must be at least 1");
  const launch_dims d = one_thread_each(n, block);
  stride_gather_kernel<<<d.grid, d.block, 0, stream>>>(in, out, n, stride);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::coalescing
