// A wrong way to do lab 03's exercise, kept as a test input for the grader: the naive product
// with A and B read through the texture path (tex1Dfetch on texture objects over the same
// device buffers). The product is right, but none of it is tiled: each output still reads 2n
// inputs. The texture path is not the global load path, so the line counting global load
// sectors reads 0 and passes; the grader fails it on the line that counts the other memory
// paths (texture instructions: the tiled product issues none).
#include "matmul_variants.hpp"

#include "cudalab/check.hpp"
#include "cudalab/unique_handle.hpp"

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

struct destroy_texture {
  void operator()(cudaTextureObject_t t) const noexcept {
    CUDALAB_CHECK_CUDA_NOEXCEPT(cudaDestroyTextureObject(t));
  }
};
using texture_object = unique_handle<cudaTextureObject_t, destroy_texture>;

// A texture object reading n x n floats of linear device memory, element by element.
texture_object floats_as_texture(const float* data, std::size_t n) {
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<float*>(data);
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.sizeInBytes = n * n * sizeof(float);
  cudaTextureDesc how{};
  how.readMode = cudaReadModeElementType;
  texture_object t;
  CUDALAB_CHECK_CUDA(cudaCreateTextureObject(t.receive(), &resource, &how, nullptr));
  return t;
}

matmul::launch_dims launch_exercise(const float* a, const float* b, float* c, std::size_t n,
                                    unsigned t, cudaStream_t stream) {
  const texture_object a_texture = floats_as_texture(a, n), b_texture = floats_as_texture(b, n);
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
