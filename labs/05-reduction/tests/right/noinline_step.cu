// A right way to do lab 05's exercise, kept as a test input for the grader: sequential
// addressing with each step's add kept in the exercise's __noinline__ helper. The calls are
// branches, so warp 0 splits at the five halvings below 32 (5 a block, measured on an H100 and an
// H200) and the helper's instructions run with few lanes: fewer threads per instruction than the
// predicated tree, the same shared traffic, and the lesson met. The grader must pass it.
#include "../graded_way.cuh"

namespace {

__device__ __noinline__ void add_partner(float* sdata, unsigned tid, unsigned s) {
  sdata[tid] += sdata[tid + s];
}

__global__ void noinline_step_kernel(const float* in, float* partial, unsigned n) {
  extern __shared__ float sdata[];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) add_partner(sdata, tid, s);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

}  // namespace

CUDALAB_REDUCTION_RIGHT_WAY(noinline_step_kernel,
                            "right way: sequential addressing, each step in a __noinline__ helper")
