// Lab 08 exercise: raise the outputs a thread.
//
// register_exercise_kernel computes C = A B for n x n row-major floats the way lab 03's tiled
// kernel does: 16 x 16 threads a block, one output a thread, 16 x 16 tiles of A and B staged in
// shared memory. Every multiply-add reads both of its operands from shared memory: with the k loop
// unrolled, about 1.25 shared load instructions a multiply-add.
//
// YOUR TASK: give each thread several outputs, so that each value it reads from shared memory
// into a register feeds several multiply-adds.
//   - For example an 8 x 8 block of outputs a thread: 256 threads own a 128 x 128 tile of C and
//     walk the inner dimension 8 columns at a time; at each column a thread reads 8 values of A
//     and 8 of B into registers and takes their 64 products (kernels/matmul/matmul_register_2d.cu
//     shows one way; the README derives the counts).
//   - You choose the launch: change launch_exercise's grid and block to your tiling.
//   - n is odd (the check runs n = 2001): tile elements past the matrix must hold 0, and only
//     outputs inside the matrix are stored.
//
// Build (cmake --build build/release), then:
//   build/release/tools/cudalab/cudalab run 08 --variant exercise,register_2d,cublas
//   build/release/tools/cudalab/cudalab check 08
// `check` passes your kernel when it is correct, its measured shared load instructions per
// multiply-add are at most 0.45, its TFLOP/s are at least 25% of cublasSgemm's, measured in the
// same run, every multiply-add is an FP32 FFMA (at least n^3 of them) and none runs on the tensor
// cores (no wmma or mma), it uses the other memory paths (atomics, reductions, texture, surfaces,
// generic LD/ST, TMA, shared atomics, matrix loads and stores, another block's shared memory) no
// more than cuBLAS does, and its launch runs only your own kernels (no cuBLAS call) and no
// cudaMemcpy or cudaMemset.
#include "regtile_variants.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {

constexpr unsigned exercise_tile = 16;

__global__ void register_exercise_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[exercise_tile][exercise_tile];
  __shared__ float b_tile[exercise_tile][exercise_tile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * exercise_tile + ty;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * exercise_tile + tx;
  float sum = 0.0f;
  for (unsigned first = 0; first < n; first += exercise_tile) {
    const std::size_t a_col = first + tx, b_row = first + ty;
    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (unsigned k = 0; k < exercise_tile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

namespace {

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned, cudaStream_t stream) {
  matmul::check_side(n);
  const auto blocks = static_cast<unsigned>((n + exercise_tile - 1) / exercise_tile);
  const matmul::launch_dims d{dim3(blocks, blocks), dim3(exercise_tile, exercise_tile)};
  register_exercise_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "your product (labs/08-register-tiling/exercise.cu)",
                               launch_exercise, std::nullopt, false});
}

}  // namespace cudalab::labs
