// A wrong way to do lab 04's exercise, kept as a test input for the grader: the block's float3
// numbers are staged through shared memory as raw bytes, one byte a lane, the way a memcpy
// loop would copy them. Each warp-level access is then 32 consecutive bytes: one sector, every
// byte of it asked for, and no sector is touched twice, so the sector rules hold. But a
// request carries 32 bytes where a warp loading a float a lane carries 128: four times the
// requests, the mistake char_per_thread shows. The grader fails it on requests.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

__global__ void byte_staged_float3_kernel(float3* data, float3* out, std::size_t n, float v) {
  extern __shared__ float tile[];
  unsigned char* tile_bytes = reinterpret_cast<unsigned char*>(tile);
  unsigned char* bytes = reinterpret_cast<unsigned char*>(data);
  unsigned char* bytes_out = reinterpret_cast<unsigned char*>(out);
  const std::size_t first_number = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t numbers = min(static_cast<std::size_t>(blockDim.x), n - first_number);
  const std::size_t first_byte = sizeof(float3) * first_number;
  const unsigned count = static_cast<unsigned>(sizeof(float3) * numbers);

  for (unsigned k = threadIdx.x; k < count; k += blockDim.x) tile_bytes[k] = bytes[first_byte + k];
  __syncthreads();
  if (threadIdx.x < numbers) {
    tile[3 * threadIdx.x + 0] += v;
    tile[3 * threadIdx.x + 1] += v;
    tile[3 * threadIdx.x + 2] += v;
  }
  __syncthreads();
  for (unsigned k = threadIdx.x; k < count; k += blockDim.x) {
    bytes[first_byte + k] = tile_bytes[k];
    bytes_out[first_byte + k] = tile_bytes[k];
  }
}

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  const std::size_t shared_bytes = sizeof(float3) * block;
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block, shared_bytes);
  byte_staged_float3_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "wrong way: the float3 tile staged a byte a lane",
                                 launch_exercise);
}

}  // namespace cudalab::labs
