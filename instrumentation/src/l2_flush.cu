#include "cudalab/l2_flush.hpp"

#include "cudalab/check.hpp"

namespace cudalab {
namespace {

// One kernel per evict(): a counted pass sees exactly one range per flush.
// Reads every 16-byte word; the store behind an impossible condition keeps the loads alive.
__global__ void l2_flush_read_kernel(const uint4* __restrict__ data, std::size_t count,
                                     unsigned* sink) {
  unsigned folded = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = data[i];
    folded ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (folded != 0) *sink = folded;
}

}  // namespace

l2_flush::l2_flush() : m_sink(1) {
  int device = 0, l2_bytes = 0, sms = 0;
  CUDALAB_CHECK_CUDA(cudaGetDevice(&device));
  CUDALAB_CHECK_CUDA(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  CUDALAB_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  m_blocks = 4 * (sms > 0 ? sms : 1);
  const std::size_t words = 4 * static_cast<std::size_t>(l2_bytes) / sizeof(uint4);
  m_buffer = device_buffer<uint4>(words > 0 ? words : 1);
  CUDALAB_CHECK_CUDA(cudaMemset(m_buffer.data(), 0, bytes()));
}

void l2_flush::evict(cudaStream_t stream) {
  l2_flush_read_kernel<<<m_blocks, 512, 0, stream>>>(m_buffer.data(), m_buffer.size(),
                                                     m_sink.data());
  CUDALAB_CHECK_LAUNCH();
}

}  // namespace cudalab
