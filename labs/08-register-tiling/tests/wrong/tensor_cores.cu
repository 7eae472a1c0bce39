// Wrong way to lab 08: the product on the tensor cores (tf32_wmma_product.cuh). A TF32 wmma
// product is right at n = 2001, fast, and loads its fragments with few shared instructions a
// multiply-add, so the correctness, LDS/FMA and speed lines can all pass: the multiply-adds are
// HMMA instructions, not the FFMAs the lesson tiles registers for. The grader fails it on the
// tensor cores' line.
#include "regtile_variants.hpp"
#include "tf32_wmma_product.cuh"

namespace cudalab::labs {

variant make_regtile_exercise_variant() {
  return make_regtile_variant({"exercise", variant_role::exercise,
                               "wrong way: the product on the tensor cores (TF32 wmma)",
                               matmul::launch_tf32_wmma_product, std::nullopt, false});
}

}  // namespace cudalab::labs
