// `cudalab check 03` (matmul_grade.hpp). The naive kernel reads about 5T/8 times the tiled
// kernel's load sectors and fails line 2; a kernel that stores inside the tile loop writes
// every output ceil(n/T) times and fails line 3; an unguarded tile fails line 1 at the
// exercise's size, which is not a multiple of any tile.
#include "matmul_grade.hpp"

#include "matmul_model.hpp"
#include "matmul_variants.hpp"

#include "cudalab/format_text.hpp"
#include "cudalab/grade.hpp"

#include <cstdio>
#include <optional>
#include <string>

namespace cudalab::labs {

matmul_targets matmul_grade_targets(std::size_t n) {
  const model::access_counts tiled =
      matmul_model::predict(matmul_model::kernel::tiled, n, fixed_tile);
  return {tiled.global_ld_sectors, tiled.global_st_sectors,
          tiled.shared_ld_conflicts + tiled.shared_st_conflicts};
}

grade_report grade_matmul(const result_row& ex, const std::vector<result_row>&) {
  grade_sheet g(ex,
                "The product is wrong. The size is not a multiple of the tile: a tile that reaches "
                "past the matrix must load 0 there, the store needs its guard, and __syncthreads() "
                "goes after filling the tiles and after using them.");
  if (g.counters_missing(ex)) return g.report();
  const matmul_targets target = matmul_grade_targets(ex.config.size);

  const auto ld = counter_total(ex, "ld_sectors");
  if (!g.bounded("ld_sectors", "ld sectors", ld, bound_kind::at_most,
                 static_cast<double>(target.ld_sectors),
                 "the " + std::to_string(fixed_tile) + "x" + std::to_string(fixed_tile) +
                     " tiled product, predicted") &&
      ld)
    g.advise("The kernel reads " + formatted("%.1f", *ld / static_cast<double>(target.ld_sectors)) +
             "x the tiled product's sectors: stage T x T tiles of A and B in shared memory so "
             "each element loaded from global memory serves T products.");

  const auto st = counter_total(ex, "st_sectors");
  if (!g.bounded("st_sectors", "st sectors", st, bound_kind::at_most,
                 static_cast<double>(target.st_sectors), "each output written once") &&
      st)
    g.advise("The kernel writes " +
             formatted("%.1f", *st / static_cast<double>(target.st_sectors)) +
             "x the stores C needs: write each output once, after the tile loop.");

  const auto ld_c = counter_total(ex, "shared_ld_conflicts");
  const auto st_c = counter_total(ex, "shared_st_conflicts");
  if (!g.bounded("shared_conflicts", "shared conflicts",
                 ld_c && st_c ? std::optional<double>(*ld_c + *st_c) : std::nullopt,
                 bound_kind::at_most, static_cast<double>(target.shared_conflicts),
                 "the tiled product, predicted; counted per instruction"))
    g.advise(
        "Lanes of a warp read different words of one bank: index the tiles so that "
        "consecutive threadIdx.x read consecutive words (or one word, a broadcast).");
  add_fp32_fma_lines(g, ex);
  return g.report();
}

}  // namespace cudalab::labs
