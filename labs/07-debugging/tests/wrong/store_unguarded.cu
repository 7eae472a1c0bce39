// A wrong way to do lab 07's exercise, kept as a test input for the grader: the barrier is in,
// so the race is gone and the blur is right, but the store keeps no guard. The tail block's
// threads past n still store past the array; the grader fails it on memcheck.
#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"

#include "cudalab/check.hpp"

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

namespace {

debugging::launch_dims launch_exercise(const float* in, float* out, std::size_t n, unsigned block,
                                       cudaStream_t stream) {
  debugging::check_block(block);
  const debugging::launch_dims d{dim3(static_cast<unsigned>((n + block - 1) / block)), dim3(block)};
  exercise_kernel<<<d.grid, d.block, (block + 2) * sizeof(float), stream>>>(in, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_debugging_exercise_variant() {
  return make_exercise_variant("wrong way: the barrier, but no guard on the store",
                               launch_exercise);
}

}  // namespace cudalab::labs
