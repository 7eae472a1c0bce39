// Lab 02-memory-spaces: where a kernel's data lives (global, constant, shared, local memory,
// registers), how it gets there (pageable and pinned copies, overlapping streams) and how to time
// it without fooling oneself.
//
// Variants (kernels in kernels/memory/):
//   coeffs_global        naive     16 coefficients from global memory: 16 one-sector loads a warp
//   coeffs_constant      fixed     from __constant__ at fixed indices: ULDC into uniform registers
//   constant_divergent   naive     each lane its own coefficient set: the constant cache serves
//                                  a warp's 32 addresses one after another
//   coeffs_shared        fixed     copied to shared memory once a block, read as a broadcast
//   local_spill          naive     a per-thread array indexed at run time: local memory
//   registers            fixed     the same sum with compile-time indices: registers only
//   pageable_h2d/_d2h    naive     cudaMemcpyAsync from/to malloc'd memory: staged by the driver
//   pinned_h2d/_d2h      fixed     from/to cudaMallocHost memory: the copy engine reads it
//   one_stream           naive     copy up, kernel, copy down, in order on one stream
//   overlap_streams      fixed     the same in 4 chunks on 4 streams: copies and kernels overlap
//   host_timer_no_sync   buggy     coeffs_global timed by the host's clock, no synchronisation
//   event_timed          fixed     the same kernel timed by CUDA events
//   alloc_free           baseline  cudaMalloc + cudaFree of one buffer of the size
//   exercise             exercise  labs/02-memory-spaces/exercise.cu (`cudalab check 02`)
#include "memory_lab.hpp"

#include "memory_bus.hpp"
#include "memory_grade.hpp"
#include "memory_model.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"

#include <algorithm>
#include <string>

namespace cudalab::labs {
namespace {

using memory_model::kernel;

variant kernel_variant(const char* name, variant_role role, const char* lesson, kernel k,
                       memory_output output = memory_output::polynomial) {
  return make_memory_kernel_variant({name, role, lesson, launcher_of(k), output, k});
}

}  // namespace

lab make_lab_02_memory_spaces() {
  lab l =
      new_lab("02-memory-spaces",
              "Memory spaces: constant, shared, local, pinned and host memory, and honest timing",
              "elements (floats)", {memory_default_size, memory_max_size, memory_sanitize_size});
  l.headline_metrics = {"ld_sectors", "local_st_sectors", "local_ld_sectors"};
  l.default_metrics = {"memory", "local", "constant"};
  variant shared = kernel_variant("coeffs_shared", variant_role::fixed,
                                  "copied to shared memory once a block, then read as a broadcast",
                                  kernel::coeffs_shared);
  shared.blocks = {static_cast<int>(memory::poly_terms), 1024, 1, false,
                   "one thread copies each of the 16 coefficients"};
  l.variants = {
      kernel_variant("coeffs_global", variant_role::naive,
                     "16 coefficients from global memory: 16 one-sector loads a warp",
                     kernel::coeffs_global),
      kernel_variant("coeffs_constant", variant_role::fixed,
                     "__constant__ at fixed indices: uniform ULDC loads, no global load",
                     kernel::coeffs_constant),
      kernel_variant("constant_divergent", variant_role::naive,
                     "a constant set a lane: 32 addresses a warp, served one after another",
                     kernel::constant_divergent, memory_output::divergent_polynomial),
      shared,
      kernel_variant("local_spill", variant_role::naive,
                     "a per-thread array indexed at run time lives in local memory (STL/LDL)",
                     kernel::local_spill, memory_output::spill_sum),
      kernel_variant("registers", variant_role::fixed,
                     "the same sum with compile-time indices: registers, no local traffic",
                     kernel::registers, memory_output::spill_sum),
      make_copy_variant("pageable_h2d", variant_role::naive, host_memory::pageable,
                        copy_direction::h2d, "host to device from pageable memory: staged"),
      make_copy_variant("pinned_h2d", variant_role::fixed, host_memory::pinned, copy_direction::h2d,
                        "host to device from pinned memory: direct DMA"),
      make_copy_variant("pageable_d2h", variant_role::naive, host_memory::pageable,
                        copy_direction::d2h, "device to host into pageable memory: staged"),
      make_copy_variant("pinned_d2h", variant_role::fixed, host_memory::pinned, copy_direction::d2h,
                        "device to host into pinned memory: direct DMA"),
      make_pipeline_variant("one_stream", variant_role::naive, 1,
                            "copy up, kernel, copy down on one stream: one at a time"),
      make_pipeline_variant("overlap_streams", variant_role::fixed, overlap_stream_count,
                            "4 chunks on 4 streams: copies both ways and kernels overlap"),
      make_timer_variant("host_timer_no_sync", variant_role::buggy, true,
                         "host clock around the launch, no sync: times the launch, not the kernel"),
      make_timer_variant("event_timed", variant_role::fixed, false,
                         "the same kernel between two CUDA events: the kernel's time"),
      make_alloc_variant(),
      make_memory_exercise_variant(),
  };
  exercise_spec ex = new_exercise(l.id, memory_default_size, grade_memory);
  ex.extra_metrics = {"local"};
  ex.graded_variants = {"local_spill", "registers"};
  ex.bound_other_memory_paths = true;
  ex.more_other_memory_paths = {"shared_ld_inst", "shared_st_inst"};
  ex.untouched_fails_on = {"local_st_sectors", "local_ld_sectors"};
  ex.wrong_ways = {
      {"accumulate_in_out", "global_sectors", "out loaded and stored at every step"},
      {"reduce_into_out", "other_memory_paths", "the terms added by global atomics"},
      {"shared_scratch", "other_memory_paths", "the array indexed at run time in shared memory"}};
  ex.right_ways = {
      {"select_scatter", "", "the array kept, each value selected into every word: registers"}};
  l.exercise = ex;
  l.notes = [] { return std::vector<std::string>{bus_peak_note()}; };
  return l;
}

}  // namespace cudalab::labs
