// Lab 07-debugging: planted bugs that compute-sanitizer and cuda-gdb find, each beside its fix.
//
// Variants (kernels in kernels/debugging/), with the tool that finds each bug:
//   oob_write               buggy  no `if (i < n)` on a ceil-div grid: stores past the array
//                                  (memcheck: invalid __global__ write)
//   oob_write_fixed         fixed  the guard
//   index_overflow          buggy  an int index over 2^31 + 4096 bytes wraps negative
//                                  (memcheck: invalid __global__ write 2 GiB before the array)
//   index_overflow_fixed    fixed  a 64-bit index
//   missing_sync            buggy  a blur through a shared tile without the barrier
//                                  (racecheck: shared-memory hazard)
//   missing_sync_fixed      fixed  __syncthreads() between filling and reading the tile
//   divergent_barrier       buggy  half of the block's warps at one __syncthreads(), the rest at
//                                  the next (synccheck: barrier in divergent code)
//   divergent_barrier_fixed fixed  one barrier after the branch
//   uninit_read             buggy  a two-pass sum reads a partial sum nobody wrote (initcheck)
//   uninit_read_fixed       fixed  the first pass covers the tail block
//   unchecked_launch        buggy  a launch that fails (64 KiB of dynamic shared memory, no
//                                  opt-in) and is never checked: the output stays stale
//   checked_launch          buggy  the same launch through CUDALAB_CHECK_LAUNCH: the error is
//                                  reported where it happened
//   unchecked_launch_fixed  fixed  opts in to 64 KiB first, then launches and checks
//   leak                    buggy  a table allocated on first use, never freed (memcheck
//                                  --leak-check full)
//   leak_fixed              fixed  the table is the variant's and freed with it
//   global_race             buggy  a histogram with bins[v] += 1: counts lost, no tool reports it
//   global_race_atomic      fixed  atomicAdd
//   global_race_privatised  fixed  shared-memory bins a block, added once a block
//   swapped_index           buggy  2D, row and column swapped: no tool reports it; cuda-gdb
//                                  shows it (README)
//   swapped_index_fixed     fixed  x picks the column
//   exercise                exercise  labs/07-debugging/exercise.cu (`cudalab check 07`)
#include "debugging_lab.hpp"

#include "debugging_grade.hpp"
#include "debugging_variants.hpp"

#include "debugging/debugging_kernels.cuh"

namespace cudalab::labs {

namespace dbg = debugging;

namespace {

// The ramp writes its output from the index alone: the input the other 1D variants read is
// not passed on.
dbg::launch_dims ramp_unguarded(const float*, float* out, std::size_t n, unsigned block,
                                cudaStream_t stream) {
  return dbg::launch_ramp_unguarded(out, n, block, stream);
}
dbg::launch_dims ramp_guarded(const float*, float* out, std::size_t n, unsigned block,
                              cudaStream_t stream) {
  return dbg::launch_ramp_guarded(out, n, block, stream);
}

}  // namespace

lab make_lab_07_debugging() {
  lab l =
      new_lab("07-debugging", "Debugging: planted bugs that compute-sanitizer and cuda-gdb find",
              "elements", {debugging_default_size});
  l.headline_metrics = {"threads_launched_per_needed", "ld_sectors_per_request"};
  l.variants = {
      make_array_variant({"oob_write", variant_role::buggy,
                          "no `if (i < n)`: the tail block stores past the array (memcheck)",
                          &ramp_unguarded, expected_output::ramp, true}),
      make_array_variant({"oob_write_fixed", variant_role::fixed, "the same grid, guarded",
                          &ramp_guarded, expected_output::ramp}),
      make_index_overflow_variant(false),
      make_index_overflow_variant(true),
      make_array_variant({"missing_sync", variant_role::buggy,
                          "a blur through a shared tile, no barrier before reading it (racecheck)",
                          &dbg::launch_blur_no_sync, expected_output::blur}),
      make_array_variant({"missing_sync_fixed", variant_role::fixed,
                          "__syncthreads() between filling the tile and reading it",
                          &dbg::launch_blur_tiled, expected_output::blur}),
      make_array_variant({"divergent_barrier", variant_role::buggy,
                          "half the warps at one __syncthreads(), half at the next "
                          "(synccheck)",
                          &dbg::launch_pair_swap_divergent, expected_output::pair_swap, false,
                          false, 32}),
      make_array_variant({"divergent_barrier_fixed", variant_role::fixed,
                          "the branch picks the value; one barrier after it",
                          &dbg::launch_pair_swap, expected_output::pair_swap, false, false, 32}),
      make_uninit_read_variant(false),
      make_uninit_read_variant(true),
      make_array_variant({"unchecked_launch", variant_role::buggy,
                          "a failed launch nobody checks: the output keeps its old contents",
                          &dbg::launch_chunk_reverse_unchecked, expected_output::chunk_reverse}),
      make_array_variant({"checked_launch", variant_role::buggy,
                          "the same launch, checked: the error is reported where it happened",
                          &dbg::launch_chunk_reverse_checked, expected_output::chunk_reverse, false,
                          true}),
      make_array_variant({"unchecked_launch_fixed", variant_role::fixed,
                          "opts in to 64 KiB of shared memory, then launches and checks",
                          &dbg::launch_chunk_reverse, expected_output::chunk_reverse}),
      make_leak_variant(false),
      make_leak_variant(true),
      make_histogram_variant(histogram_kind::racy),
      make_histogram_variant(histogram_kind::atomic),
      make_histogram_variant(histogram_kind::privatised),
      make_swapped_index_variant(false),
      make_swapped_index_variant(true),
      make_debugging_exercise_variant(),
  };
  exercise_spec ex = new_exercise(l.id, debugging_default_size, grade_debugging);
  ex.graded_variants = {"missing_sync", "missing_sync_fixed"};
  ex.reference_variants = {debugging_reference_variant};
  // The untouched exercise and the barrier-less wrong ways race: their answers may come out
  // either way. Its unguarded tail block stores past out: more store sectors than the fix.
  ex.untouched_fails_on = {"memcheck", "racecheck", "canary", "st_sectors"};
  ex.untouched_races = true;
  ex.wrong_ways = {{"store_unguarded", "memcheck", "the tail block's stores past the array"},
                   {"syncwarp_for_syncthreads", "racecheck",
                    "a warp's barrier where the block's is needed", true},
                   {"host_blur", "copies_and_memsets", "the host blurs between two copies"},
                   {"global_tile", "ld_sectors",
                    "the tile in global memory, where racecheck does not look", true},
                   {"guarded_only_under_sanitizer", "canary",
                    "its stores guarded only when compute-sanitizer is attached"}};
  ex.right_ways = {{"block_group_sync", "", "cooperative groups' block sync, then past n return"}};
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
