// Lab 04 exercise, a reference solution (built as cudalab_lab04_solution; the checker's tests
// prove that it passes `cudalab check` and that the untouched exercise fails).
//
// The block's numbers are 3 * blockDim.x consecutive floats. The threads copy them into a
// shared tile with a block-stride loop (lane k reads the float after lane k-1's: coalesced),
// each thread updates its own float3 in the tile, and the same loop writes the tile back to
// data and to out. The loop form needs no pass count and handles the partial last block by
// stopping at 3n floats. The tile is read at words 3t, 3t+1, 3t+2: a stride of 3 words, so 32
// lanes hit 32 different banks (gcd(3, 32) = 1) and the update is conflict-free.
// kernels/coalescing/float3_kernels.cu has the same idea unrolled into three passes.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {

__global__ void exercise_float3_kernel(float3* data, float3* out, std::size_t n, float v) {
  extern __shared__ float tile[];
  float* flat = reinterpret_cast<float*>(data);
  float* flat_out = reinterpret_cast<float*>(out);
  const std::size_t first_number = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t numbers = min(static_cast<std::size_t>(blockDim.x), n - first_number);
  const std::size_t first_float = 3 * first_number;
  const unsigned floats = static_cast<unsigned>(3 * numbers);

  for (unsigned k = threadIdx.x; k < floats; k += blockDim.x) tile[k] = flat[first_float + k];
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

namespace {

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  const std::size_t shared_bytes = 3 * sizeof(float) * block;
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block, shared_bytes);
  exercise_float3_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "your float3 update (labs/04-coalescing/exercise.cu)",
                                 launch_exercise);
}

}  // namespace cudalab::labs
