// A wrong way to do lab 03's exercise, kept as a test input for the grader: the launcher calls
// cublasSgemm (the kit's cuBLAS baseline, matmul::cublas_product). The product is right and
// fast, and cuBLAS's kernel stages its tiles too, so the sector, conflict and speed lines pass:
// the tiling is the library's, not the learner's. The grader's inventory of the launch names
// cuBLAS's kernel, and "kernels" fails.
#include "matmul_variants.hpp"

#include "matmul/matmul_kernels.cuh"

namespace cudalab::labs {
namespace {

matmul::launch_dims launch_cublas(const float* a, const float* b, float* c, std::size_t n,
                                  unsigned tile, cudaStream_t stream) {
  // One handle a process, as a learner would keep it, never destroyed: no cuBLAS call at exit.
  static matmul::cublas_product* const product = new matmul::cublas_product();
  product->run(a, b, c, n, stream);
  return matmul::tiled_dims(n, tile);
}

}  // namespace

variant make_matmul_exercise_variant() {
  return make_kernel_variant({"exercise", variant_role::exercise,
                              "wrong way: the launcher calls cublasSgemm", launch_cublas,
                              shape_from::fixed, std::nullopt});
}

}  // namespace cudalab::labs
