// A wrong way to do lab 07's exercise, kept as a test input for the grader: the tile moved out
// of shared memory into a global scratch array, still with no barrier between filling it and
// reading the neighbours. racecheck watches shared memory only, so it reports nothing, and the
// store is guarded, so memcheck and the canary are quiet too; the race is still there, and every
// element now goes to global memory and back. The grader fails it on the global traffic, held
// to the fixed kernel's.
#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"

#include "cudalab/check.hpp"

#include <stdexcept>

namespace cudalab::labs {

constexpr std::size_t scratch_capacity = 1u << 21;  // the check's size, 1000003, and more
__device__ float scratch_tile[scratch_capacity];    // slot i holds element i, written by thread i

__global__ void exercise_kernel(const float* in, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) scratch_tile[i] = in[i];
  // No barrier (and none could order blocks): a neighbour's slot may not be written yet.
  if (i < n)
    out[i] = debugging::blur3(scratch_tile[debugging::clamped(debugging::left_of(i), n)],
                              scratch_tile[i], scratch_tile[debugging::clamped(i + 1, n)]);
}

namespace {

debugging::launch_dims launch_exercise(const float* in, float* out, std::size_t n, unsigned block,
                                       cudaStream_t stream) {
  debugging::check_block(block);
  if (n > scratch_capacity) throw std::invalid_argument("global_tile: n past its scratch");
  const debugging::launch_dims d{dim3(static_cast<unsigned>((n + block - 1) / block)), dim3(block)};
  exercise_kernel<<<d.grid, d.block, 0, stream>>>(in, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_debugging_exercise_variant() {
  return make_exercise_variant("wrong way: the tile in global memory, no barrier", launch_exercise);
}

}  // namespace cudalab::labs
