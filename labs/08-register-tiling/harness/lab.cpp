// Lab 08-register-tiling: the matrix product C = A B with several outputs a thread, from the
// padding route of older tutorials to a warp-tiled kernel near cuBLAS.
//
// Variants (kernels in kernels/matmul/):
//   pad_to_64         naive     A and B copied into zero-padded buffers (side a multiple of 64),
//                               4 outputs a thread, no guards; the copies untimed
//   pad_to_64_copies  naive     the same, timed with its padding copies
//   coarse_1d         fixed     8 outputs of a column a thread (64 x 64 block tile, BK = 8)
//   register_2d       fixed     an 8 x 8 block of outputs a thread (128 x 128, BK = 8)
//   vectorized        fixed     register_2d with 16-byte loads, the A tile transposed
//   warp_tiled        fixed     a warp tile between block and thread (sweep `config`)
//   cp_async_pipeline fixed     warp_tiled double-buffered: the next step's tiles arrive
//                               (B by cp.async, A through registers) while the warps compute
//                               (sweep `config`)
//   cp_async_tuned    fixed     cp_async_pipeline in the configuration the committed sweep
//                               found fastest at the swept side nearest n
//   cublas            baseline  cublasSgemm, FP32 (TF32 off)
//   exercise          exercise  labs/08-register-tiling/exercise.cu (`cudalab check 08`)
#include "regtile_lab.hpp"

#include "regtile_grade.hpp"
#include "regtile_model.hpp"
#include "regtile_variants.hpp"

#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/grade.hpp"

#include <algorithm>
#include <string>

namespace cudalab::labs {
namespace {

using regtile_model::kernel;
namespace mm = cudalab::matmul;

mm::launch_dims coarse_1d(const float* a, const float* b, float* c, std::size_t n, unsigned,
                          cudaStream_t s) {
  return mm::launch_coarse_1d(a, b, c, n, s);
}
mm::launch_dims register_2d(const float* a, const float* b, float* c, std::size_t n, unsigned,
                            cudaStream_t s) {
  return mm::launch_register_2d(a, b, c, n, s);
}
mm::launch_dims vectorized(const float* a, const float* b, float* c, std::size_t n, unsigned,
                           cudaStream_t s) {
  return mm::launch_vectorized(a, b, c, n, s);
}
template <kernel_resources (*Query)()>
std::vector<kernel_resources> one_kernel(const launch_config&) {
  return {Query()};
}
// A warp-tiled kernel's resources in the point's configuration.
template <kernel_resources (*Query)(unsigned)>
std::vector<kernel_resources> configured_kernel(const launch_config& c) {
  return {Query(static_cast<unsigned>(c.param))};
}
// The same for a kernel built apart for some sides (cp_async_pipeline).
template <kernel_resources (*Query)(unsigned, std::size_t)>
std::vector<kernel_resources> configured_kernel(const launch_config& c) {
  return {Query(static_cast<unsigned>(c.param), c.size)};
}

}  // namespace

lab make_lab_08_register_tiling() {
  lab l = new_lab("08-register-tiling", "Register tiling: several outputs a thread, toward cuBLAS",
                  "matrix side n (n x n x n product)", {regtile_default_side, mm::max_side});
  l.headline_metrics = {"lds_per_fma", "ld_sectors"};
  l.flop_bound = true;
  l.roof_variant = "cublas";
  l.default_metrics = {"memory",
                       "shared_ld_inst",
                       "shared_ld_wavefronts",
                       "shared_st_wavefronts",
                       "shared_ld_conflicts",
                       "shared_st_conflicts"};
  l.variants = {
      make_pad_to_64_variant(false),
      make_pad_to_64_variant(true),
      make_regtile_variant({"coarse_1d", variant_role::fixed,
                            "8 outputs of a column a thread: each B value read feeds 8 FMAs",
                            &coarse_1d, kernel::coarse_1d, false,
                            one_kernel<&mm::coarse_1d_resources>}),
      make_regtile_variant({"register_2d", variant_role::fixed,
                            "an 8 x 8 block a thread: each value read feeds 8 FMAs", &register_2d,
                            kernel::register_2d, false, one_kernel<&mm::register_2d_resources>}),
      make_regtile_variant({"vectorized", variant_role::fixed,
                            "register_2d with 16-byte loads and the A tile transposed", &vectorized,
                            kernel::vectorized, false, one_kernel<&mm::vectorized_resources>}),
      make_regtile_variant({"warp_tiled", variant_role::fixed,
                            "a warp tile between block and thread (sweep config)",
                            &mm::launch_warp_tiled, kernel::warp_tiled, true,
                            configured_kernel<&mm::warp_tiled_resources>}),
      make_regtile_variant({"cp_async_pipeline", variant_role::fixed,
                            "warp_tiled double-buffered: the next tiles arrive during the math",
                            &mm::launch_cp_async_pipeline, kernel::cp_async_pipeline, true,
                            configured_kernel<&mm::cp_async_pipeline_resources>}),
      make_regtile_variant({"cp_async_tuned", variant_role::fixed,
                            "cp_async_pipeline in the configuration a sweep chose for the size",
                            &mm::launch_cp_async_pipeline, kernel::cp_async_pipeline, false,
                            configured_kernel<&mm::cp_async_pipeline_resources>,
                            &mm::tuned_pipeline_config}),
      make_cublas_variant(),
      make_regtile_exercise_variant(),
  };
  exercise_spec ex = new_exercise(l.id, regtile_default_side, grade_regtile);
  ex.reference_variants = {"cublas"};
  ex.extra_metrics = fp32_fma_metrics();
  // A tile read through laundered pointers (generic LD) would read 0 on LDS/FMA.
  ex.bound_other_memory_paths = true;
  ex.graded_variants = {"pad_to_64",  "pad_to_64_copies", "coarse_1d",         "register_2d",
                        "vectorized", "warp_tiled",       "cp_async_pipeline", "cp_async_tuned"};
  ex.graded_sweep_values = {static_cast<long>(mm::warp_tiled_default_config)};
  ex.untouched_fails_on = {"lds_per_fma", "speed"};
  ex.wrong_ways = {
      {"cublas_call", "kernels", "the launcher calls cublasSgemm"},
      {"tensor_cores", "tensor_inst", "a TF32 wmma product: right, fast, few shared loads"},
      {"generic_pointer_tiles", "other_memory_paths",
       "tiles read through laundered generic pointers: LDS/FMA reads 0"}};
  ex.right_ways = {{"outputs_4x8", "", "4 x 8 outputs a thread: 12 shared loads for 32 FFMAs"}};
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
