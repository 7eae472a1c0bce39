// A right way to do lab 05's exercise, kept as a test input for the grader: each warp sums its
// 32 values in registers with __shfl_down_sync, lane 0 of each warp puts the warp's sum in
// shared memory, and the first warp sums those the same way. No warp idles at a step, shared
// memory holds one word a warp, and one thread writes the block's sum: the lesson's tree, in
// registers. The grader must pass it.
#include "../graded_way.cuh"

namespace {

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void warp_shuffle_tree_kernel(const float* in, float* partial, unsigned n) {
  extern __shared__ float warp_sums[];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  const float v = warp_sum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = (blockDim.x + 31) / 32;
    const float total = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
    if (lane == 0) partial[blockIdx.x] = total;
  }
}

}  // namespace

CUDALAB_REDUCTION_RIGHT_WAY(warp_shuffle_tree_kernel,
                            "right way: a shuffle tree in each warp, then one over the warps")
