// Lab 04 launchers: each checks its launch shape (1..1024 threads a block, at least one element,
// a grid that fits), launches on `stream` and checks the launch (CUDALAB_CHECK_LAUNCH).
//
// One thread a float3 number (float3 family), a byte (char_per_thread), a 4-byte word
// (uchar4_packed) or a float (offset, stride). The float3 family all do the same work:
// add v to x, y and z of every number in place, and copy the updated number to `out`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cudalab::coalescing {

struct launch_dims {
  unsigned grid = 0;
  unsigned block = 0;
  std::size_t shared_bytes = 0;
};

// The shape of a launch with one thread per item; throws cudalab::usage_error when it cannot run.
launch_dims one_thread_each(std::size_t items, unsigned block, std::size_t shared_bytes = 0);

// NAIVE: data[i].x += v; data[i].y += v; data[i].z += v; out[i] = data[i];
// Three 4-byte loads 12 bytes apart a thread: 12 sectors a request.
launch_dims launch_aos_float3_naive(float3* data, float3* out, std::size_t n, float v,
                                    unsigned block, cudaStream_t stream);
// FIXED: the block copies its float3 numbers as plain floats into shared memory (coalesced),
// updates them there, and writes them back and out as plain floats. Any block size, any n.
launch_dims launch_aos_float3_staged(float3* data, float3* out, std::size_t n, float v,
                                     unsigned block, cudaStream_t stream);
// FIXED: the same numbers padded to float4 (w unused): one 16-byte load a thread.
launch_dims launch_aos_float4(float4* data, float4* out, std::size_t n, float v, unsigned block,
                              cudaStream_t stream);

// Structure of arrays: three separate float arrays.
struct soa_arrays {
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
};
// FIXED: x[i] += v, y[i] += v, z[i] += v, copied to out: each access coalesced.
launch_dims launch_soa_float3(soa_arrays data, soa_arrays out, std::size_t n, float v,
                              unsigned block, cudaStream_t stream);

// NAIVE: out[i] = in[i] + k, one byte a thread (a request moves 32 bytes).
launch_dims launch_char_per_thread(const unsigned char* in, unsigned char* out, std::size_t n,
                                   unsigned char k, unsigned block, cudaStream_t stream);
// FIXED: four bytes a thread in one 4-byte access (a request moves 128 bytes). `in` and `out`
// hold packed_words(n) words: the caller rounds the allocations up to whole words.
launch_dims launch_uchar4_packed(const uchar4* in, uchar4* out, std::size_t n, unsigned char k,
                                 unsigned block, cudaStream_t stream);

// SWEEP: out[i + offset] = in[i + offset] for i < n (both hold n + offset floats or more).
launch_dims launch_offset_copy(const float* in, float* out, std::size_t n, unsigned offset,
                               unsigned block, cudaStream_t stream);
// SWEEP: out[i] = in[i * stride] for i < n (in holds (n - 1) * stride + 1 floats or more).
launch_dims launch_stride_gather(const float* in, float* out, std::size_t n, unsigned stride,
                                 unsigned block, cudaStream_t stream);

}  // namespace cudalab::coalescing
