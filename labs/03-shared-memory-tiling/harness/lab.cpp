// Lab 03-shared-memory-tiling: the matrix product C = A B, from one output a thread reading
// global memory to tiles staged in shared memory, with cuBLAS and the CPU as baselines.
//
// Variants (kernels in kernels/matmul/):
//   naive                naive     one output a thread, a row of A and a column of B from global
//                                  memory: two requests a multiply-add
//   tiled                fixed     T x T tiles in shared memory, T = 2..32 (sweep `tile`);
//                                  guarded loads write 0, guarded store: any n
//   tiled_unguarded      buggy     the tiled kernel without guards: wrong unless T divides n
//   tiled_store_in_loop  buggy     C written after every tile step: right answer, ceil(n/T)
//                                  times the stores
//   cublas               baseline  cublasSgemm, FP32 (TF32 off)
//   cpu_naive            baseline  the triple loop on one CPU core
//   exercise             exercise  labs/03-shared-memory-tiling/exercise.cu (`cudalab check 03`)
#include "matmul_lab.hpp"

#include "matmul_grade.hpp"
#include "matmul_model.hpp"
#include "matmul_variants.hpp"

#include "matmul/matmul_kernels.cuh"

#include "cudalab/grade.hpp"

#include <algorithm>
#include <string>

namespace cudalab::labs {
namespace {

using matmul_model::kernel;

}  // namespace

lab make_lab_03_shared_memory_tiling() {
  lab l = new_lab("03-shared-memory-tiling",
                  "Shared-memory tiling: the matrix product, from naive to cuBLAS",
                  "matrix side n (n x n x n product)",
                  {matmul_default_side, matmul::max_side, matmul_sanitize_side});
  l.headline_metrics = {"ld_sectors", "st_sectors", "shared_conflicts"};
  l.flop_bound = true;
  // The shared-memory traffic beside the global one, so that tiles' bank behaviour is visible.
  l.default_metrics = {"memory", "shared_ld_wavefronts", "shared_st_wavefronts",
                       "shared_ld_conflicts", "shared_st_conflicts"};
  l.variants = {
      make_kernel_variant({"naive", variant_role::naive,
                           "one output a thread: every multiply-add loads from global memory",
                           &matmul::launch_naive, shape_from::block, kernel::naive}),
      make_kernel_variant({"tiled", variant_role::fixed,
                           "T x T tiles in shared memory: each loaded element serves T products",
                           &matmul::launch_tiled, shape_from::sweep, kernel::tiled}),
      make_kernel_variant(
          {"tiled_unguarded", variant_role::buggy,
           "tiled, T = 16, no edge guards: reads and writes past the matrix unless 16 divides n",
           &matmul::launch_tiled_unguarded, shape_from::fixed, kernel::tiled_unguarded}),
      make_kernel_variant({"tiled_store_in_loop", variant_role::buggy,
                           "tiled, T = 16, C written every tile step: ceil(n/16) times the stores",
                           &matmul::launch_tiled_store_in_loop, shape_from::fixed,
                           kernel::tiled_store_in_loop}),
      make_cublas_variant(),
      make_cpu_naive_variant(),
      make_matmul_exercise_variant(),
  };
  exercise_spec ex = new_exercise(l.id, matmul_default_side, grade_matmul);
  ex.graded_variants = {"naive", "tiled", "tiled_unguarded", "tiled_store_in_loop"};
  ex.graded_sweep_values = {static_cast<long>(fixed_tile)};
  ex.bound_other_memory_paths = true;
  ex.extra_metrics = fp32_fma_metrics();
  // One lane at a time, or a block's product in one thread, would pass the sector lines.
  ex.speed_reference = "tiled";
  ex.untouched_fails_on = {"ld_sectors"};
  ex.wrong_ways = {
      {"b_tile_transposed", "shared_conflicts", "B's tile words 16 apart: two banks"},
      {"texture_reads", "other_memory_paths", "the naive product through the texture path"},
      {"tensor_cores", "tensor_inst", "TF32 wmma on tiles in shared memory: right, few sectors"},
      {"cublas_call", "kernels", "the launcher calls cublasSgemm"}};
  ex.right_ways = {
      {"cp_async_tiles", "", "the tiles filled by cp.async (LDGSTS), not LDG and STS"}};
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
