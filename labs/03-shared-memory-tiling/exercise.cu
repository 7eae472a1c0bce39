// Lab 03 exercise: make the matrix product tiled.
//
// exercise_kernel computes C = A B for n x n row-major floats, one output a thread, exactly
// like the naive variant: every multiply-add loads one float of A and one of B from global
// memory, 2n loads an output.
//
// YOUR TASK: stage T x T tiles of A and B in shared memory (T = `tile`, 16 here) so that each
// float loaded from global memory serves T multiply-adds.
//   - Keep the launch: T x T threads a block, ceil(n/T) x ceil(n/T) blocks, one output a thread
//     (row from y, column from x).
//   - n is not a multiple of T (the check runs n = 1001): a tile element past the matrix must
//     hold 0, and only threads inside the matrix write C.
//   - Write each output once, after the loop over the tiles.
//   - Hint: two __syncthreads() a tile step: after filling the tiles, and after using them.
//
// Build (cmake --build build/release), then:
//   build/release/tools/cudalab/cudalab run 03 --variant exercise,tiled --sweep tile=16
//   build/release/tools/cudalab/cudalab check 03
// `check` runs your kernel with hardware counters and passes it when it is correct, its global load
// sectors are no more than the 16 x 16 tiled product's (the model's figure at this size), it writes
// each output once, it has no shared-memory bank conflict (counted per instruction, exact), its
// median time is at most 2 x the 16 x 16 tiled product's, timed in the same run (a floor, not a
// race), it takes no other memory path (atomics, reductions, texture, surfaces, generic LD/ST, TMA,
// shared atomics, matrix loads and stores, another block's shared memory), every multiply-add is
// an FP32 FFMA and none runs on the tensor cores (no wmma or mma), and its launch runs only your
// own kernels (no library's) and no cudaMemcpy or cudaMemset.
#include "matmul_variants.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {

__global__ void exercise_kernel(const float* a, const float* b, float* c, unsigned n) {
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (unsigned k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

namespace {

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned tile, cudaStream_t stream) {
  const matmul::launch_dims d = matmul::tiled_dims(n, tile);  // tile x tile threads a block
  exercise_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_matmul_exercise_variant() {
  return make_kernel_variant({"exercise", variant_role::exercise,
                              "your product (labs/03-shared-memory-tiling/exercise.cu)",
                              launch_exercise, shape_from::fixed, std::nullopt});
}

}  // namespace cudalab::labs
