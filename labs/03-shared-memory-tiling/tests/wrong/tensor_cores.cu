// A wrong way to do lab 03's exercise, kept as a test input for the grader: the product on the
// tensor cores (tf32_wmma_product.cuh). It stages its operands in shared-memory tiles like the
// lesson's kernel, and TF32 still meets the lab's tolerance, but the multiply-adds are HMMA
// instructions, not the FP32 FFMAs of the lesson's product: whatever its traffic lines read, the
// grader fails it on the tensor cores' line.
#include "matmul_variants.hpp"
#include "tf32_wmma_product.cuh"

namespace cudalab::labs {

variant make_matmul_exercise_variant() {
  return make_kernel_variant({"exercise", variant_role::exercise,
                              "wrong way: the product on the tensor cores (TF32 wmma)",
                              matmul::launch_tf32_wmma_product, shape_from::fixed, std::nullopt});
}

}  // namespace cudalab::labs
