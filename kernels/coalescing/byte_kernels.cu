// Lab 04 kernels: bytes, one a thread or four a thread.
//
// Both add k to every byte (wrapping modulo 256). Since compute capability 2.0 a warp's 32
// consecutive bytes are one sector and one request: the one-byte kernel wastes no DRAM
// bandwidth, as the 2009-era rule "char accesses are not coalesced" would suggest. What it
// wastes is requests: each warp instruction moves 32 bytes instead of 128, so the load/store
// unit does four times the work for the same data.
//
//   char_per_thread_kernel  LDG.E.U8 + STG.E.U8 a thread: n/32 requests of 1 sector each way
//   uchar4_packed_kernel    LDG.E + STG.E a thread (uchar4 is 4-byte aligned): n/128 requests
//                           of 4 sectors each way, the same sectors in a quarter of the requests
// (SASS checked with cuobjdump -sass on the release build, sm_90.)
#include "coalescing/coalescing_index.cuh"
#include "coalescing/coalescing_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::coalescing {

__global__ void char_per_thread_kernel(const unsigned char* in, unsigned char* out, std::size_t n,
                                       unsigned char k) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) out[i] = add_byte(in[i], k);
}

__global__ void uchar4_packed_kernel(const uchar4* in, uchar4* out, std::size_t words,
                                     unsigned char k) {
  const std::size_t j = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (j < words) {
    uchar4 b = in[j];
    b.x = add_byte(b.x, k);
    b.y = add_byte(b.y, k);
    b.z = add_byte(b.z, k);
    b.w = add_byte(b.w, k);
    out[j] = b;
  }
}

launch_dims launch_char_per_thread(const unsigned char* in, unsigned char* out, std::size_t n,
                                   unsigned char k, unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  char_per_thread_kernel<<<d.grid, d.block, 0, stream>>>(in, out, n, k);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_uchar4_packed(const uchar4* in, uchar4* out, std::size_t n, unsigned char k,
                                 unsigned block, cudaStream_t stream) {
  const std::size_t words = packed_words(n);
  const launch_dims d = one_thread_each(words, block);
  uchar4_packed_kernel<<<d.grid, d.block, 0, stream>>>(in, out, words, k);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::coalescing
