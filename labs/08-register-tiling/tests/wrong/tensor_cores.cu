// Wrong way to lab 08: the product on the tensor cores. Each warp computes a 16 x 16 tile of C
// with wmma's TF32 multiply-accumulate (m16n16k8), its operands staged in shared memory with
// zeros past the odd n. TF32's 10-bit mantissa still meets the FP32 tolerance at n = 2001, the
// fragments are loaded with few shared instructions a multiply-add and the tensor cores are
// fast, so the correctness, LDS/FMA and speed lines can all pass: the multiply-adds are HMMA
// instructions, not the FFMAs the lesson tiles registers for. The grader fails it on the tensor
// cores' line.
#include "regtile_variants.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"

#include <mma.h>

namespace cudalab::labs {
namespace {

constexpr unsigned side = 16;  // the tile of C a warp computes
constexpr unsigned depth = 8;  // the k step of one TF32 multiply-accumulate

__global__ void tensor_core_kernel(const float* a, const float* b, float* c, unsigned n) {
  namespace wmma = nvcuda::wmma;
  __shared__ float a_tile[side][depth];
  __shared__ float b_tile[depth][side];
  __shared__ float c_tile[side][side];
  const unsigned lane = threadIdx.x;
  const std::size_t row0 = static_cast<std::size_t>(blockIdx.y) * side;
  const std::size_t col0 = static_cast<std::size_t>(blockIdx.x) * side;
  wmma::fragment<wmma::accumulator, side, side, depth, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  for (std::size_t k0 = 0; k0 < n; k0 += depth) {
    for (unsigned e = lane; e < side * depth; e += 32) {
      const std::size_t ar = row0 + e / depth, ak = k0 + e % depth;
      a_tile[e / depth][e % depth] = ar < n && ak < n ? a[ar * n + ak] : 0.0f;
      const std::size_t bk = k0 + e / side, bc = col0 + e % side;
      b_tile[e / side][e % side] = bk < n && bc < n ? b[bk * n + bc] : 0.0f;
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, side, side, depth, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, side, side, depth, wmma::precision::tf32, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, &a_tile[0][0], depth);
    wmma::load_matrix_sync(fb, &b_tile[0][0], side);
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(sum, fa, fb, sum);
    __syncwarp();
  }
  wmma::store_matrix_sync(&c_tile[0][0], sum, side, wmma::mem_row_major);
  __syncwarp();
  for (unsigned e = lane; e < side * side; e += 32) {
    const std::size_t r = row0 + e / side, col = col0 + e % side;
    if (r < n && col < n) c[r * n + col] = c_tile[e / side][e % side];
  }
}

matmul::launch_dims launch_tensor_cores(const float* a, const float* b, float* c, std::size_t n,
                                        unsigned, cudaStream_t stream) {
  matmul::check_side(n);
  const auto tiles = static_cast<unsigned>((n + side - 1) / side);
  const matmul::launch_dims d{dim3(tiles, tiles), dim3(32)};
  tensor_core_kernel<<<d.grid, d.block, 0, stream>>>(a, b, c, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "wrong way: the product on the tensor cores (TF32 wmma)",
                               launch_tensor_cores, std::nullopt, false});
}

}  // namespace cudalab::labs
