// A wrong way to do lab 04's exercise, kept as a test input for the grader: a coalesced update
// (the float3 array read and written as plain floats, a float a lane) that is made slow on
// purpose, each warp sleeping 200 us, and a launcher that counts its calls and launches nothing
// on the fourth to the sixth: the grader's first three timed launches. Their median is then the
// time of an empty launch and the speed floor passes, while every traffic line reads the slow
// kernel's honest counts; only the last launch's answer used to be checked. The grader verifies
// every launch, warm-ups and timed ones alike, and fails it on correctness.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

__global__ void slow_flat_update_kernel(float* data, float* out, std::size_t floats, float v) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int nap = 0; nap < 200; ++nap) __nanosleep(1000);
  if (i < floats) {
    const float x = data[i] + v;
    data[i] = x;
    out[i] = x;
  }
}

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  static int calls = 0;  // the grader's runs: 3 warm-ups, then the timed launches
  ++calls;
  const coalescing::launch_dims d = coalescing::one_thread_each(3 * n, block);
  if (calls >= 4 && calls <= 6) return coalescing::one_thread_each(n, block);
  slow_flat_update_kernel<<<d.grid, d.block, 0, stream>>>(reinterpret_cast<float*>(data),
                                                          reinterpret_cast<float*>(out), 3 * n, v);
  CUDALAB_CHECK_LAUNCH();
  return coalescing::one_thread_each(n, block);
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "wrong way: idle through three timed launches", launch_exercise);
}

}  // namespace cudalab::labs
