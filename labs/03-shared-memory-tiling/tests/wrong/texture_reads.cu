// A wrong way to do lab 03's exercise, kept as a test input for the grader: the naive product
// with A and B read through the texture path (tex1Dfetch on texture objects over the same
// device buffers). The product is right, but none of it is tiled: each output still reads 2n
// inputs. The texture path is not the global load path, so the line counting global load
// sectors reads 0 and passes; the grader fails it on the line that counts the other memory
// paths (texture instructions: the tiled product issues none).
#include "matmul_variants.hpp"

#include "cudalab/check.hpp"
#include "cudalab/testing/linear_texture.hpp"

namespace cudalab::labs {
namespace {

__global__ void texture_naive_kernel(cudaTextureObject_t a, cudaTextureObject_t b, float* c,
                                     unsigned n) {
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (unsigned k = 0; k < n; ++k)
    sum += tex1Dfetch<float>(a, static_cast<int>(row * n + k)) *
           tex1Dfetch<float>(b, static_cast<int>(k * n + col));
  c[static_cast<std::size_t>(row) * n + col] = sum;
}

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned t, cudaStream_t stream) {
  const testing::texture_object a_texture = testing::linear_float_texture(a, n * n);
  const testing::texture_object b_texture = testing::linear_float_texture(b, n * n);
  const matmul::launch_dims d = matmul::tiled_dims(n, t);
  texture_naive_kernel<<<d.grid, d.block, 0, stream>>>(a_texture.get(), b_texture.get(), c,
                                                       static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  // The objects are destroyed on return: the kernel must be done with them.
  CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  return d;
}

}  // namespace

variant make_matmul_exercise_variant() {
  return make_kernel_variant({"exercise", variant_role::exercise,
                              "wrong way: the naive product read through textures", launch_exercise,
                              shape_from::fixed, std::nullopt});
}

}  // namespace cudalab::labs
