// Lab 07 exercise, a reference solution (built as cudalab_lab07_solution; the checker's tests
// prove that it passes `cudalab check` and that the untouched exercise fails).
//
// The two fixes: __syncthreads() between filling the tile and reading the neighbours' slots
// (racecheck's hazard: a thread at a warp's edge read a slot the next warp had not written yet),
// and `if (i < n)` on the store (memcheck's invalid write: the tail block's threads past n
// stored past the array). The loads need no guard: they are clamped to the array already.
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
  if (i < n) out[i] = debugging::blur3(tile[t - 1], tile[t], tile[t + 1]);
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
  return make_exercise_variant("your blur (labs/07-debugging/exercise.cu)", launch_exercise);
}

}  // namespace cudalab::labs
