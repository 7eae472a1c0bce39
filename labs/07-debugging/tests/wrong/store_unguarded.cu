// A wrong way to do lab 07's exercise, kept as a test input for the grader: the barrier is in,
// so the race is gone and the blur is right, but the store keeps no guard. The tail block's
// threads past n still store past the array; the grader fails it on memcheck.
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
  __syncthreads();
  out[i] = debugging::blur3(tile[t - 1], tile[t], tile[t + 1]);
}

}  // namespace cudalab::labs

CUDALAB_BLUR_WAY(exercise_kernel, "wrong way: the barrier, but no guard on the store")
