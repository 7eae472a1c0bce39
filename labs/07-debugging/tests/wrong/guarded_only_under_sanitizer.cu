// A wrong way to do lab 07's exercise, kept as a test input for the grader: the barrier is in and
// the store is guarded, but only when compute-sanitizer is attached (a library of its folder
// mapped into the process, which it injects). Under memcheck and racecheck it is clean; run
// on its own, the tail block's threads past n store past the array, into the slack of its last
// page, where no answer shows them. The grader keeps a canary band after the output in its own
// run, and fails it there.
#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"

#include "cudalab/check.hpp"

#include <fstream>
#include <string>

namespace cudalab::labs {

__global__ void exercise_kernel(const float* in, float* out, std::size_t n, bool guarded) {
  extern __shared__ float tile[];  // blockDim.x + 2 floats: slot t + 1 holds element t
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  const std::size_t i = first + threadIdx.x;
  const unsigned t = threadIdx.x + 1;
  tile[t] = in[debugging::clamped(i, n)];
  if (threadIdx.x == 0) tile[0] = in[debugging::clamped(debugging::left_of(first), n)];
  if (threadIdx.x == blockDim.x - 1)
    tile[blockDim.x + 1] = in[debugging::clamped(first + blockDim.x, n)];
  __syncthreads();
  if (!guarded || i < n) out[i] = debugging::blur3(tile[t - 1], tile[t], tile[t + 1]);
}

namespace {

bool sanitizer_attached() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find("/compute-sanitizer/") != std::string::npos) return true;
  return false;
}

debugging::launch_dims launch_exercise(const float* in, float* out, std::size_t n, unsigned block,
                                       cudaStream_t stream) {
  debugging::check_block(block);
  const debugging::launch_dims d{dim3(static_cast<unsigned>((n + block - 1) / block)), dim3(block)};
  exercise_kernel<<<d.grid, d.block, (block + 2) * sizeof(float), stream>>>(in, out, n,
                                                                            sanitizer_attached());
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_debugging_exercise_variant() {
  return make_exercise_variant("wrong way: guarded only under compute-sanitizer", launch_exercise);
}

}  // namespace cudalab::labs
