// Lab 06 exercise, a reference solution (built as cudalab_lab06_solution; the checker's tests
// prove that it passes `cudalab check` and that the untouched exercise fails).
//
// The tile gets one extra column: `tile[32][33]`. Element (r, c) sits at word 33 r + c, in bank
// (r + c) mod 32, so the 32 words of column c fall in 32 different banks and a warp reads a
// column in one wavefront. Rows stay conflict-free (32 consecutive words). The padding costs
// 32 floats of shared memory a block. kernels/transpose/transpose_tiled.cu has the same kernel
// (`padded`) and a swizzled one that needs no padding.
#include "transpose_variants.hpp"

#include "transpose/transpose_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {

__global__ void transpose_exercise_kernel(const float* in, float* out, unsigned rows,
                                          unsigned cols) {
  __shared__ float tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  std::size_t r = static_cast<std::size_t>(blockIdx.y) * 32 + ty;
  std::size_t c = static_cast<std::size_t>(blockIdx.x) * 32 + tx;
  if (r < rows && c < cols) tile[ty][tx] = in[r * cols + c];
  __syncthreads();
  r = static_cast<std::size_t>(blockIdx.y) * 32 + tx;
  c = static_cast<std::size_t>(blockIdx.x) * 32 + ty;
  if (r < rows && c < cols) out[c * rows + r] = tile[tx][ty];
}

namespace {

transpose::launch_dims launch_exercise(const float* in, float* out, std::size_t rows,
                                       std::size_t cols, cudaStream_t stream) {
  const transpose::launch_dims d = transpose::tile_dims(rows, cols, 32);
  transpose_exercise_kernel<<<d.grid, d.block, 0, stream>>>(in, out, static_cast<unsigned>(rows),
                                                            static_cast<unsigned>(cols));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

transpose_spec transpose_exercise_spec() {
  auto s = transpose_spec::named("exercise", variant_role::exercise,
                                 "your transpose (labs/06-bank-conflicts/exercise.cu)");
  s.float_launch = launch_exercise;
  return s;
}

}  // namespace cudalab::labs
