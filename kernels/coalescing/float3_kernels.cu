// Lab 04 kernels: the same update of an array of float3, four ways.
//
// Every kernel adds v to x, y and z of each number in place and copies the updated number to
// `out`: read 12 bytes, write 12 bytes back, write 12 bytes out, per number.
//
//   aos_float3_naive_kernel   one thread a float3. A warp's x loads are 32 floats 12 bytes
//                             apart: 384 bytes, 12 sectors, of which 128 bytes are used. y and z
//                             again (they mostly hit L1, but each is still a 12-sector request).
//   aos_float3_staged_kernel  the block moves its 3*blockDim floats as plain floats, 32
//                             consecutive floats a warp (4 sectors a request), through a shared
//                             tile; each thread updates its float3 in the tile at words 3t..3t+2
//                             (stride 3: conflict-free, gcd(3, 32) = 1).
//   aos_float4_kernel         the numbers padded to 16 bytes: one 16-byte load a thread, 16
//                             sectors a request, every byte of them used (w included).
//   soa_float3_kernel         x, y and z in three arrays: every access 4 sectors a request.
//
// SASS (cuobjdump -sass of the release build, sm_90, nvcc 13.0):
//   naive    3 LDG.E + 6 STG.E: the compiler forwards the three stored components to out[i]
//            instead of reloading them (data[i] and out[i] may alias, but the stores to out
//            come after every load).
//   staged   3 LDG.E + 3 STS (staging), 3 LDS + 3 STS (update: 3t*4 is only 4-byte aligned,
//            so no vector LDS), 3 LDS + 6 STG.E (write-back and out). The staging and
//            write-back passes are predicated on g < 3n (the last pass exits instead), so in
//            a partial last block a pass whose 32 floats all lie past 3n moves nothing.
//   float4   1 LDG.E.128 + 2 STG.E.128.
//   soa      3 LDG.E + 6 STG.E (loads first, into registers, so no reload is needed).
// The lab's model records exactly these instructions; labs/04-coalescing/README.md shows how
// to look at the SASS yourself.
#include "coalescing/coalescing_index.cuh"
#include "coalescing/coalescing_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::coalescing {

__global__ void aos_float3_naive_kernel(float3* data, float3* out, std::size_t n, float v) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) {
    data[i].x += v;
    data[i].y += v;
    data[i].z += v;
    out[i] = data[i];
  }
}

__global__ void aos_float3_staged_kernel(float* data, float* out, std::size_t n, float v) {
  extern __shared__ float tile[];
  const unsigned t = threadIdx.x;
  const unsigned threads = blockDim.x;
  const std::size_t floats = std::size_t{float3_components} * n;
#pragma unroll
  for (unsigned pass = 0; pass < float3_components; ++pass) {
    const std::size_t g = staged_global_float(blockIdx.x, threads, pass, t);
    if (g < floats) tile[staged_tile_word(pass, threads, t)] = data[g];
  }
  __syncthreads();
  if (element_index(blockIdx.x, threads, t) < n) {
#pragma unroll
    for (unsigned c = 0; c < float3_components; ++c) {
      const std::size_t w = aos_float_index(t, c);
      tile[w] = add_value(tile[w], v);
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned pass = 0; pass < float3_components; ++pass) {
    const std::size_t g = staged_global_float(blockIdx.x, threads, pass, t);
    if (g < floats) {
      const float x = tile[staged_tile_word(pass, threads, t)];
      data[g] = x;
      out[g] = x;
    }
  }
}

__global__ void aos_float4_kernel(float4* data, float4* out, std::size_t n, float v) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) {
    float4 p = data[i];
    p.x = add_value(p.x, v);
    p.y = add_value(p.y, v);
    p.z = add_value(p.z, v);
    data[i] = p;
    out[i] = p;
  }
}

__global__ void soa_float3_kernel(soa_arrays data, soa_arrays out, std::size_t n, float v) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) {
    const float x = add_value(data.x[i], v);
    const float y = add_value(data.y[i], v);
    const float z = add_value(data.z[i], v);
    data.x[i] = x;
    data.y[i] = y;
    data.z[i] = z;
    out.x[i] = x;
    out.y[i] = y;
    out.z[i] = z;
  }
}

launch_dims launch_aos_float3_naive(float3* data, float3* out, std::size_t n, float v,
                                    unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  aos_float3_naive_kernel<<<d.grid, d.block, 0, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_aos_float3_staged(float3* data, float3* out, std::size_t n, float v,
                                     unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block, staged_tile_bytes(block));
  // float3 is three floats without padding (sizeof 12, alignment 4): the same bytes as floats.
  static_assert(sizeof(float3) == 3 * sizeof(float), "float3 must be three packed floats");
  aos_float3_staged_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(
      reinterpret_cast<float*>(data), reinterpret_cast<float*>(out), n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_aos_float4(float4* data, float4* out, std::size_t n, float v, unsigned block,
                              cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  aos_float4_kernel<<<d.grid, d.block, 0, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_soa_float3(soa_arrays data, soa_arrays out, std::size_t n, float v,
                              unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  soa_float3_kernel<<<d.grid, d.block, 0, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::coalescing
