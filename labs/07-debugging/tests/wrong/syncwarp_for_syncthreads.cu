// A wrong way to do lab 07's exercise, kept as a test input for the grader: the store is guarded,
// and __syncwarp() stands where __syncthreads() belongs. It orders the lanes of one warp only:
// the thread at a warp's edge still reads the slot the next warp fills, with nothing between.
// Its answer is usually right; the grader fails it on racecheck.
#include "../graded_way.cuh"

namespace cudalab::labs {

__global__ void exercise_kernel(const float* in, float* out, std::size_t n) {
  extern __shared__ float tile[];  // blockDim.x + 2 floats: slot t + 1 holds element t
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = first + threadIdx.x;
  const unsigned t = threadIdx.x + 1;
  tile[t] = in[debugging::clamped(i, n)];
  if (threadIdx.x == 0) tile[0] = in[debugging::clamped(debugging::left_of(first), n)];
  if (threadIdx.x == blockDim.x - 1)
    tile[blockDim.x + 1] = in[debugging::clamped(first + blockDim.x, n)];
  __syncwarp();  // orders one warp's lanes, where the block needs a barrier
  if (i < n) out[i] = debugging::blur3(tile[t - 1], tile[t], tile[t + 1]);
}

}  // namespace cudalab::labs

CUDALAB_BLUR_WAY(exercise_kernel, "wrong way: __syncwarp() for __syncthreads()")
