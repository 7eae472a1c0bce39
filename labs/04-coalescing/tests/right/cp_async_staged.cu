// A right way to do lab 04's exercise, kept as a test input for the grader: the staged update
// of the solution with its tile filled by cp.async (LDGSTS: global straight to shared, no
// register in between) instead of loads and shared stores. Its global reads are as coalesced as
// the solution's, and the grader must pass it: LDGSTS counts as the global load it is.
#include "right_way.cuh"

#include <cuda_pipeline.h>

namespace {

__global__ void cp_async_staged_kernel(float3* data, float3* out, std::size_t n, float v) {
  extern __shared__ float tile[];
  const cudalab::labs::right_way::block_floats b = cudalab::labs::right_way::this_blocks_floats(n);
  const float* flat = reinterpret_cast<const float*>(data);
  // Lane k copies float k: a warp's 32 copies read 128 consecutive bytes.
  for (unsigned k = threadIdx.x; k < b.count; k += blockDim.x)
    __pipeline_memcpy_async(&tile[k], &flat[b.first + k], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  cudalab::labs::right_way::update_and_store(tile, data, out, b, v);
}

}  // namespace

CUDALAB_COALESCING_RIGHT_WAY(cp_async_staged_kernel,
                             "right way: the staged update, its tile filled by cp.async")
