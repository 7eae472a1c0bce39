// A wrong way to do lab 04's exercise, kept as a test input for the grader: each lane reads its
// float3 through global atomics (atomicAdd of 0 returns the value, one 12-byte-strided ATOMG a
// component), which the load counters of the lesson do not count; one plain, coalesced load a
// lane gives the load lines requests to divide by, and the stores go out coalesced from a
// shared tile. Every sectors and requests line then holds although the reads are as scattered
// as aos_float3's. The grader fails it on the line that counts the other memory paths.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

__global__ void atomic_loads_float3_kernel(float3* data, float3* out, std::size_t n, float v) {
  extern __shared__ float tile[];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t numbers = min(static_cast<std::size_t>(blockDim.x), n - first);
  if (threadIdx.x < numbers) {
    float* mine = reinterpret_cast<float*>(data + first + threadIdx.x);
    for (int k = 0; k < 3; ++k) tile[3 * threadIdx.x + k] = atomicAdd(mine + k, 0.0f) + v;
  }
  // The plain load the load lines divide by: coalesced, and kept by a test no input passes.
  float* block_data = reinterpret_cast<float*>(data + first);
  const float witness = threadIdx.x < 3 * numbers ? block_data[threadIdx.x] : 0.0f;
  __syncthreads();
  float* block_out = reinterpret_cast<float*>(out + first);
  for (std::size_t k = threadIdx.x; k < 3 * numbers; k += blockDim.x) {
    block_data[k] = tile[k];
    block_out[k] = tile[k];
  }
  if (__float_as_uint(witness) == 0x7fbadbadu) block_out[0] = witness;  // a NaN never given
}

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  const std::size_t shared_bytes = sizeof(float3) * block;
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block, shared_bytes);
  atomic_loads_float3_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "wrong way: the float3 read through global atomics",
                                 launch_exercise);
}

}  // namespace cudalab::labs
