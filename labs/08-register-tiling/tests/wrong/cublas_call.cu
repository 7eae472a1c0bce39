// Wrong way to lab 08: the launcher calls cublasSgemm (the kit's cuBLAS baseline,
// matmul::cublas_product). The product is right and fast, and cuBLAS's kernel reads shared
// memory sparingly, so the counter lines (which count every kernel of the launch) pass: the work
// is the library's, not a kernel of the exercise. The grader's inventory of the launch names
// cuBLAS's kernel, and "kernels" fails.
#include "regtile_variants.hpp"

#include "matmul/matmul_kernels.cuh"

namespace cudalab::labs {
namespace {

matmul::launch_dims launch_cublas(const float* a, const float* b, float* c, std::size_t n, unsigned,
                                  cudaStream_t stream) {
  // One handle a process, as a learner would keep it, never destroyed: no cuBLAS call at exit.
  static matmul::cublas_product* const product = new matmul::cublas_product();
  product->run(a, b, c, n, stream);
  return {dim3(1), dim3(1)};
}

}  // namespace

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "wrong way: the launcher calls cublasSgemm", launch_cublas,
                               std::nullopt, false});
}

}  // namespace cudalab::labs
