// `cudalab check 06` (transpose_grade.hpp). The naive transposes fail a sectors line (32 a
// request on the strided side); the plain shared tile passes both and fails on conflicts, 31 a
// column read; a tile padded the wrong way (34 columns: 2 ways) fails on conflicts too.
#include "transpose_grade.hpp"

#include "transpose_model.hpp"

#include "cudalab/format_text.hpp"
#include "cudalab/grade.hpp"

#include <cstdio>
#include <optional>
#include <string>

namespace cudalab::labs {
transpose_targets transpose_grade_targets(std::size_t n) {
  const model::access_counts p = transpose_model::predict(transpose_model::kernel::padded, n, n);
  return {static_cast<double>(p.global_ld_sectors) / static_cast<double>(p.global_ld_requests),
          static_cast<double>(p.global_st_sectors) / static_cast<double>(p.global_st_requests),
          static_cast<double>(p.global_ld_requests + p.global_st_requests),
          static_cast<double>(p.shared_ld_conflicts + p.shared_st_conflicts)};
}

grade_report grade_transpose(const result_row& ex, const std::vector<result_row>&) {
  grade_sheet g(ex,
                "The transpose is wrong. The size is not a multiple of 32: threads past the matrix "
                "must neither load nor store, and __syncthreads() must sit between filling the "
                "tile and reading it, where every thread of the block reaches it.");
  if (g.counters_missing(ex)) return g.report();
  const transpose_targets target = transpose_grade_targets(ex.config.size);

  const auto side_line = [&](const char* side, std::optional<double> measured, double goal,
                             const char* what) {
    const bool ok = g.bounded(std::string(side) + "_sectors_per_request",
                              std::string(side) + " sectors/request", measured, bound_kind::at_most,
                              goal, "coalesced, the padded transpose predicted", "%.3f");
    if (!ok && measured)
      g.advise(std::string("The ") + what + " touch " + formatted("%.1f", *measured) +
               " sectors a request: a warp's 32 lanes must " + what +
               " 32 consecutive elements of a row. Stage the tile in shared memory: read rows "
               "of the input, write rows of the output.");
    return ok;
  };
  side_line("ld", counter_per_request(ex, "ld_sectors", "ld_requests"),
            target.ld_sectors_per_request, "loads");
  side_line("st", counter_per_request(ex, "st_sectors", "st_requests"),
            target.st_sectors_per_request, "stores");

  // Sectors a request alone would pass a kernel that issues each lane's access on its own (one
  // sector a request, 32 times the requests): the reference's requests bound them.
  const auto ld_r = counter_total(ex, "ld_requests");
  const auto st_r = counter_total(ex, "st_requests");
  const std::optional<double> requests =
      ld_r && st_r ? std::optional<double>(*ld_r + *st_r) : std::nullopt;
  if (!g.bounded("requests", "requests", requests, bound_kind::at_most, target.requests,
                 "ld + st, the padded transpose predicted") &&
      requests)
    g.advise("The kernel issues " + formatted("%.1f", *requests / target.requests) +
             " times the requests of the tiled transpose: every lane of a warp should load and "
             "store in the same instruction, 32 consecutive elements a request.");

  const auto ld_w = counter_total(ex, "shared_ld_wavefronts");
  const auto st_w = counter_total(ex, "shared_st_wavefronts");
  const auto ld_c = counter_total(ex, "shared_ld_conflicts");
  const auto st_c = counter_total(ex, "shared_st_conflicts");
  const std::optional<double> conflicts =
      ld_c && st_c ? std::optional<double>(*ld_c + *st_c) : std::nullopt;
  if (!g.bounded("shared_conflicts", "shared conflicts", conflicts, bound_kind::at_most,
                 target.shared_conflicts,
                 "the padded transpose, predicted; counted per instruction") &&
      conflicts && ld_w && st_w)
    g.advise("Bank conflicts: " + formatted("%.1f", *conflicts / (*ld_w + *st_w) * 100) +
             "% of the shared wavefronts. A column of a [32][32] float tile is 32 words of one "
             "bank; give the tile a row pitch that is odd in words (pad it) or swizzle the "
             "column index, so a column's 32 words land in 32 banks.");
  return g.report();
}

}  // namespace cudalab::labs
