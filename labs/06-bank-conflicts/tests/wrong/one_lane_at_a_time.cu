// A wrong way to do lab 06's exercise, kept as a test input for the grader: a padded tile whose
// lanes take turns at global memory. Each of a warp's 32 loads and 32 stores is its own
// instruction with one active lane, so every request touches one sector: both sectors-a-request
// figures look perfect (1 <= 4) and the tile has no conflicts, yet the warp issues 32 requests
// where the tiled transpose issues one. The grader fails it on requests.
#include "../graded_way.cuh"

namespace cudalab::labs {
namespace {

__global__ void one_lane_at_a_time_kernel(const float* in, float* out, unsigned rows,
                                          unsigned cols) {
  __shared__ float tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, lane = tx % 32;
  std::size_t r = static_cast<std::size_t>(blockIdx.y) * 32 + ty;
  std::size_t c = static_cast<std::size_t>(blockIdx.x) * 32 + tx;
  const bool inside_in = r < rows && c < cols;
#pragma unroll 1
  for (unsigned turn = 0; turn < 32; ++turn) {
    if (lane == turn && inside_in) tile[ty][tx] = in[r * cols + c];
    __syncwarp();  // the lanes' loads stay apart: one request each
  }
  __syncthreads();
  r = static_cast<std::size_t>(blockIdx.y) * 32 + tx;
  c = static_cast<std::size_t>(blockIdx.x) * 32 + ty;
  const bool inside_out = r < rows && c < cols;
#pragma unroll 1
  for (unsigned turn = 0; turn < 32; ++turn) {
    if (lane == turn && inside_out) out[c * rows + r] = tile[tx][ty];
    __syncwarp();
  }
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_TRANSPOSE_WAY(one_lane_at_a_time_kernel,
                      "wrong way: the lanes of a warp take turns at global memory")
