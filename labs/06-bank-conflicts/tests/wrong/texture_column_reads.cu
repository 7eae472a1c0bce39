// A wrong way to do lab 06's exercise, kept as a test input for the grader: no tile at all. Each
// thread reads its element down a column of the input through the texture path (tex1Dfetch: TLD
// in the SASS) and writes it along a row of the output, coalesced. One plain, coalesced load a
// thread gives the load lines the requests and sectors of the padded transpose, so both
// sectors-a-request lines, the requests line and the conflicts line all hold, while the real
// reads are as scattered as naive_col_read's. The grader fails it on other memory paths.
#include "../graded_way.cuh"

#include "cudalab/testing/linear_texture.hpp"

namespace cudalab::labs {
namespace {

__global__ void texture_column_reads_kernel(cudaTextureObject_t in_texture, const float* in,
                                            float* out, unsigned rows, unsigned cols) {
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  // The plain load the load lines divide by, where the padded transpose loads its tile.
  const std::size_t r_in = static_cast<std::size_t>(blockIdx.y) * 32 + ty;
  const std::size_t c_in = static_cast<std::size_t>(blockIdx.x) * 32 + tx;
  const float witness = r_in < rows && c_in < cols ? in[r_in * cols + c_in] : 0.0f;
  // The element this thread writes, read down a column through the texture path.
  const std::size_t r = static_cast<std::size_t>(blockIdx.y) * 32 + tx;
  const std::size_t c = static_cast<std::size_t>(blockIdx.x) * 32 + ty;
  if (r < rows && c < cols)
    out[c * rows + r] = tex1Dfetch<float>(in_texture, static_cast<int>(r * cols + c));
  if (__float_as_uint(witness) == 0x7fbadbadu) out[0] = witness;  // a NaN never given
}

transpose::launch_dims launch_exercise(const float* in, float* out, std::size_t rows,
                                       std::size_t cols, cudaStream_t stream) {
  const testing::texture_object in_texture = testing::linear_float_texture(in, rows * cols);
  const transpose::launch_dims d = graded_way::launch_over_the_tiles(
      texture_column_reads_kernel, rows, cols, stream, in_texture.get(), in, out);
  // The texture object is destroyed on return: the kernel must be done with it.
  CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  return d;
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_TRANSPOSE_WAY_LAUNCHED(launch_exercise,
                               "wrong way: columns read through the texture path, no tile")
