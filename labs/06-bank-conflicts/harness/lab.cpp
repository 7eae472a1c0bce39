// Lab 06-bank-conflicts: the matrix transpose, from uncoalesced global accesses to a shared
// tile without bank conflicts, with coalesced copies as the roof in sectors.
//
// Variants (kernels in kernels/transpose/):
//   copy                baseline  out = in, 32 x 8 blocks, 4 elements a thread: coalesced
//   copy_restrict       baseline  the same with __restrict__ pointers: loads need not wait
//                                 for the stores between them
//   naive_row_read      naive     reads rows, writes columns: 32 sectors a store request
//   naive_col_read      naive     reads columns, writes rows: 32 sectors a load request
//   shared_tile         naive     32 x 32 shared tile: a 32-way conflict a column read
//   padded              fixed     the tile padded to 33 columns: no conflict
//   swizzled            fixed     column c of row r at c XOR r: no conflict, no padding
//   tile_rows           fixed     the padded tile, 32 x 8 threads, 4 elements each
//   tile64_rows         fixed     a padded 64 x 64 tile, 32 x 8 threads, 16 elements each
//   tile64_vec4         fixed     the 64 x 64 tile in 16-byte chunks both ways, chunks swizzled,
//                                 the blocks taking the tiles down the columns (tile64_rows's
//                                 kernel where a side is not a multiple of 4)
//   tile64_vec4_row_order  fixed  the same with the blocks along the rows
//   shared_tile_double  naive     the plain tile of doubles: half-warp phases, 16 ways each
//   padded_double       fixed     the padded tile of doubles: no conflict
//   shared_stride       sweep     the copy through shared memory, lanes `stride` words apart:
//                                 gcd(stride, 32)-way conflicts
//   exercise            exercise  labs/06-bank-conflicts/exercise.cu (`cudalab check 06`)
#include "transpose_lab.hpp"

#include "transpose_grade.hpp"
#include "transpose_variants.hpp"

#include "transpose/transpose_kernels.cuh"

namespace cudalab::labs {

lab make_lab_06_bank_conflicts() {
  lab l = new_lab("06-bank-conflicts",
                  "Bank conflicts: the matrix transpose, from uncoalesced to conflict-free",
                  "matrix side n (n x n)", {transpose_default_side, transpose::max_side});
  l.headline_metrics = {"ld_sectors_per_request", "st_sectors_per_request", "shared_conflicts"};
  l.default_metrics = {"memory", "shared", "dram"};
  for (const transpose_spec& spec : transpose_specs())
    l.variants.push_back(make_transpose_variant(spec));
  l.variants.push_back(make_transpose_variant(transpose_exercise_spec()));
  exercise_spec ex = new_exercise(l.id, transpose_default_side, grade_transpose);
  // The float transposes: the exercise's own problem (the doubles and the copies move other
  // data).
  ex.graded_variants = {"naive_row_read", "naive_col_read", "shared_tile",
                        "padded",         "swizzled",       "tile_rows",
                        "tile64_rows",    "tile64_vec4",    "tile64_vec4_row_order"};
  ex.bound_other_memory_paths = true;
  // The conflict-free transpose the exercise becomes, timed beside it.
  ex.speed_reference = "padded";
  ex.untouched_fails_on = {"shared_conflicts"};
  ex.wrong_ways = {
      {"pad_two_words", "shared_conflicts", "a pitch of 34 words: 2-way column reads"},
      {"one_lane_at_a_time", "requests", "lanes take turns: 32 times the requests"},
      {"texture_column_reads", "other_memory_paths", "columns read through the texture path"},
      {"copy_engine_transpose", "copies_and_memsets", "a 2D copy a row on the copy engine"},
      {"atomic_column_reads", "other_memory_paths", "the tile's columns read by shared atomics"}};
  ex.right_ways = {
      {"swizzled_tile", "", "no padding: the column index XORed with the row"},
      {"warp_shuffle_transpose", "", "no shared memory: a warp transposes a tile by shuffles"}};
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
