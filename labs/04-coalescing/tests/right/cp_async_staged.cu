// A right way to do lab 04's exercise, kept as a test input for the grader: the staged update
// of the solution with its tile filled by cp.async (LDGSTS: global straight to shared, no
// register in between) instead of loads and shared stores. Its global reads are as coalesced as
// the solution's, and the grader must pass it: LDGSTS counts as the global load it is.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

#include <cuda_pipeline.h>

namespace cudalab::labs {
namespace {

__global__ void cp_async_staged_kernel(float3* data, float3* out, std::size_t n, float v) {
  extern __shared__ float tile[];
  float* flat = reinterpret_cast<float*>(data);
  float* flat_out = reinterpret_cast<float*>(out);
  const std::size_t first_number = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t numbers = min(static_cast<std::size_t>(blockDim.x), n - first_number);
  const std::size_t first_float = 3 * first_number;
  const unsigned floats = static_cast<unsigned>(3 * numbers);

  // Lane k copies float k: a warp's 32 copies read 128 consecutive bytes.
  for (unsigned k = threadIdx.x; k < floats; k += blockDim.x)
    __pipeline_memcpy_async(&tile[k], &flat[first_float + k], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  if (threadIdx.x < numbers) {
    tile[3 * threadIdx.x + 0] += v;
    tile[3 * threadIdx.x + 1] += v;
    tile[3 * threadIdx.x + 2] += v;
  }
  __syncthreads();
  for (unsigned k = threadIdx.x; k < floats; k += blockDim.x) {
    flat[first_float + k] = tile[k];
    flat_out[first_float + k] = tile[k];
  }
}

coalescing::launch_dims launch_cp_async(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  const std::size_t shared_bytes = 3 * sizeof(float) * block;
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block, shared_bytes);
  cp_async_staged_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "right way: the staged update, its tile filled by cp.async",
                                 launch_cp_async);
}

}  // namespace cudalab::labs
