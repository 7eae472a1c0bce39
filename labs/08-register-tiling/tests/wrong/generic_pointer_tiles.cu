// Wrong way to lab 08: lab 03's tiled product, its tiles read through generic pointers. An empty
// asm statement hides where the pointers point, so the compiler cannot prove they address
// shared memory and emits generic loads (LD) in place of shared ones (LDS). The LDS/FMA line then
// reads 0 although every multiply-add still reads both operands from the tile: the lesson's
// counter is dodged, not earned. The grader fails it on the other memory paths' line (generic
// loads, which cuBLAS does not use).
#include "regtile_variants.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

constexpr unsigned tile = 16;

// The same address, with its address space no longer known to the compiler.
__device__ const float* laundered(const float* p) {
  asm volatile("" : "+l"(p));
  return p;
}

__global__ void generic_tile_kernel(const float* a, const float* b, float* c, unsigned n) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * tile + ty;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * tile + tx;
  const float* a_row = laundered(&a_tile[ty][0]);
  const float* b_col = laundered(&b_tile[0][tx]);
  float sum = 0.0f;
  for (unsigned first = 0; first < n; first += tile) {
    const std::size_t a_col = first + tx, b_row = first + ty;
    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (unsigned k = 0; k < tile; ++k) sum += a_row[k] * b_col[k * tile];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

matmul::launch_dims launch_generic_tiles(const float* a, const float* b, float* c, std::size_t n,
                                         unsigned, cudaStream_t stream) {
  matmul::check_side(n);
  const auto blocks = static_cast<unsigned>((n + tile - 1) / tile);
  const matmul::launch_dims d{dim3(blocks, blocks), dim3(tile, tile)};
  generic_tile_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "wrong way: tiles read through generic pointers (LD, not LDS)",
                               launch_generic_tiles, std::nullopt, false});
}

}  // namespace cudalab::labs
