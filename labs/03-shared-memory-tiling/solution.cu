// Lab 03 exercise, a reference solution (built as cudalab_lab03_solution; the checker's tests
// prove that it passes `cudalab check` and that the untouched exercise fails).
//
// Each block walks the inner dimension a tile at a time: its threads copy a T x T tile of A
// (rows of the block, columns t T ..) and one of B (rows t T .., columns of the block) into
// shared memory, one float a thread, writing 0 where the tile reaches past the matrix; then
// each thread takes T products from row ty of the A tile and column tx of the B tile. A warp
// reads one or two words of the A tile (a broadcast) and 16 or 32 consecutive words of the B
// tile: no bank conflict. kernels/matmul/matmul_tiled.cu has the same kernel for every built
// tile, T = 2, 4, 8, 16 and 32.
#include "matmul_variants.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {

constexpr unsigned solution_tile = fixed_tile;

__global__ void exercise_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[solution_tile][solution_tile];
  __shared__ float b_tile[solution_tile][solution_tile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * solution_tile + ty;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * solution_tile + tx;
  float sum = 0.0f;
  for (unsigned first = 0; first < n; first += solution_tile) {
    const std::size_t a_col = first + tx, b_row = first + ty;
    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (unsigned k = 0; k < solution_tile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

namespace {

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned tile, cudaStream_t stream) {
  if (tile != solution_tile)
    throw usage_error("the solution is written for " + std::to_string(solution_tile) + " x " +
                      std::to_string(solution_tile) + " tiles, not " + std::to_string(tile));
  const matmul::launch_dims d = matmul::tiled_dims(n, tile);
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
