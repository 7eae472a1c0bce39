// What lab 04's right ways share with the staged solution: the block's floats of the float3
// array, the update of the tile and its coalesced write-back, the launch and the registration,
// so that each right way's file holds only how it fills its tile.
#pragma once

#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs::right_way {

// The floats of the float3 array that this block's numbers cover.
struct block_floats {
  std::size_t first = 0;    // index of the block's first float
  std::size_t numbers = 0;  // the block's numbers: blockDim.x, or fewer in the tail block
  unsigned count = 0;       // 3 a number
};

__device__ inline block_floats this_blocks_floats(std::size_t n) {
  const std::size_t first_number = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t numbers = min(static_cast<std::size_t>(blockDim.x), n - first_number);
  return {3 * first_number, numbers, static_cast<unsigned>(3 * numbers)};
}

// After the tile holds the block's floats: adds v to each number's three floats and writes the
// tile back to data and out, lane k writing float k (coalesced).
__device__ inline void update_and_store(float* tile, float3* data, float3* out, block_floats b,
                                        float v) {
  __syncthreads();
  if (threadIdx.x < b.numbers) {
    tile[3 * threadIdx.x + 0] += v;
    tile[3 * threadIdx.x + 1] += v;
    tile[3 * threadIdx.x + 2] += v;
  }
  __syncthreads();
  float* flat = reinterpret_cast<float*>(data);
  float* flat_out = reinterpret_cast<float*>(out);
  for (unsigned k = threadIdx.x; k < b.count; k += blockDim.x) {
    flat[b.first + k] = tile[k];
    flat_out[b.first + k] = tile[k];
  }
}

// Launches kernel(data, out, n, v) as the exercise is launched: a thread a number, 3 floats a
// thread of shared memory.
template <class Kernel>
coalescing::launch_dims launch_staged(Kernel kernel, float3* data, float3* out, std::size_t n,
                                      float v, unsigned block, cudaStream_t stream) {
  const std::size_t shared_bytes = 3 * sizeof(float) * block;
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block, shared_bytes);
  kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::labs::right_way

// Registers kernel(data, out, n, v), launched as the exercise is, as this build's exercise, with
// `lesson` as its line in `cudalab list`.
#define CUDALAB_COALESCING_RIGHT_WAY(kernel, lesson)                                          \
  namespace cudalab::labs {                                                                   \
  variant make_coalescing_exercise_variant() {                                                \
    return make_float3_aos_variant("exercise", variant_role::exercise, lesson,                \
                                   [](float3* data, float3* out, std::size_t n, float v,      \
                                      unsigned block, cudaStream_t stream) {                  \
                                     return right_way::launch_staged(kernel, data, out, n, v, \
                                                                     block, stream);          \
                                   });                                                        \
  }                                                                                           \
  }
