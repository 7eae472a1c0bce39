// A wrong way to do lab 04's exercise, kept as a test input for the grader: the first launch runs
// the naive float3 update and keeps its answer in a buffer of its own; every later launch copies
// that answer back with a coalesced kernel (one read of the answer, a write to data and to out:
// the ideal sectors, four a request). Timed, counted and inventoried on the inputs of the first
// launch, it passes every traffic line and the speed floor without the lesson. The grader
// prepares each counted launch, and the inventoried one, on inputs no earlier launch saw, and
// verifies it: the cached answer is wrong there, and the grade fails on correctness.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"

namespace cudalab::labs {
namespace {

__global__ void keep_answer_kernel(const float* out, float* answer, std::size_t floats) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < floats) answer[i] = out[i];
}

__global__ void replay_answer_kernel(const float* answer, float* data, float* out,
                                     std::size_t floats) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < floats) {
    const float value = answer[i];
    data[i] = value;
    out[i] = value;
  }
}

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  // Kept for the whole process on purpose: the cheat is that it outlives every launch. Never
  // freed, so that no destructor runs after the CUDA runtime has gone at exit.
  static device_buffer<float>* answer = nullptr;
  const std::size_t floats = 3 * n;
  const coalescing::launch_dims d = coalescing::one_thread_each(floats, block);
  if (answer == nullptr || answer->size() != floats) {
    answer = new device_buffer<float>(floats);
    const coalescing::launch_dims naive =
        coalescing::launch_aos_float3_naive(data, out, n, v, block, stream);
    keep_answer_kernel<<<d.grid, d.block, 0, stream>>>(reinterpret_cast<const float*>(out),
                                                       answer->data(), floats);
    CUDALAB_CHECK_LAUNCH();
    return naive;
  }
  replay_answer_kernel<<<d.grid, d.block, 0, stream>>>(
      answer->data(), reinterpret_cast<float*>(data), reinterpret_cast<float*>(out), floats);
  CUDALAB_CHECK_LAUNCH();
  return coalescing::one_thread_each(n, block);
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "wrong way: the first launch's answer replayed", launch_exercise);
}

}  // namespace cudalab::labs
