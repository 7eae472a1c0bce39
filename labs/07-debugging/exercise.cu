// Lab 07 exercise: two planted bugs in one kernel. Find them with the tools, then fix them.
//
// exercise_kernel blurs n floats: out[i] = (in[i-1] + in[i] + in[i+1]) / 3, with the neighbours
// clamped at both ends. Each block copies its elements and one halo element each side into a
// shared tile, then every thread reads its neighbours from the tile. The launch is a ceil-div
// grid: the last block has threads past n.
//
// YOUR TASK: the kernel has two bugs. Its answer may well look right; the tools say otherwise.
//   1. Run it under memcheck and racecheck (each prints where, by kernel, thread and line):
//        scripts/sanitize.sh 07-debugging exercise memcheck
//        scripts/sanitize.sh 07-debugging exercise racecheck
//   2. Fix what each reports. Keep the tile and the launch.
//
// Build (cmake --build build/release), then:
//   build/release/tools/cudalab/cudalab run 07 --variant exercise
//   build/release/tools/cudalab/cudalab check 07
// `check` verifies the blur and a canary band after `out` (no store past the end), counts its
// global load and store sectors beside the fixed blur's, then runs compute-sanitizer's memcheck
// and racecheck on the exercise itself (child processes), and passes it when the answer is right
// in every run, it moves no more global sectors than the fixed blur, the band is intact, both
// tools report zero errors, and its launch runs only your own kernels (at least one) and no
// cudaMemcpy or cudaMemset (no blur on the host).
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
  return make_exercise_variant("your blur (labs/07-debugging/exercise.cu)", launch_exercise);
}

}  // namespace cudalab::labs
