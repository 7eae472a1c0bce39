// `cudalab check 02` (memory_grade.hpp). local_spill stores 16 words and loads them back through
// local memory (128 sectors a warp) and fails lines 2 and 3; a kernel that keeps the array in a
// global buffer instead fails line 4; the registers kernel touches no local memory and passes.
#include "memory_grade.hpp"

#include "cudalab/grade.hpp"

#include "memory_lab.hpp"
#include "memory_model.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <tuple>

namespace cudalab::labs {
memory_targets memory_grade_targets(std::size_t n, unsigned block) {
  const model::access_counts registers =
      memory_model::predict(memory_model::kernel::registers, n, block, spill_step);
  return {registers.local_ld_sectors, registers.local_st_sectors,
          registers.global_ld_sectors + registers.global_st_sectors};
}

grade_report grade_memory(const result_row& ex, const std::vector<result_row>&) {
  grade_sheet g(ex,
                "The sums are wrong: element i must equal sum_k (spill_slot(k, step) + 1) * "
                "spill_value(x[i], k), the same terms local_spill adds.");
  if (g.counters_missing(ex)) return g.report();
  const memory_targets target =
      memory_grade_targets(ex.config.size, static_cast<unsigned>(ex.config.block));
  for (const auto& [metric, goal, what] :
       {std::tuple{"local_st_sectors", target.local_st_sectors, "local st sectors"},
        std::tuple{"local_ld_sectors", target.local_ld_sectors, "local ld sectors"}})
    if (!g.bounded(metric, what, counter_total(ex, metric), bound_kind::at_most,
                   static_cast<double>(goal), "the registers kernel, predicted"))
      g.advise(
          "The kernel still moves its array through local memory (STL/LDL in cuobjdump -sass): "
          "a register has no address, so index the array only with compile-time constants (a "
          "fully unrolled loop) and move the run-time part, spill_slot(k, step), into the "
          "values.");
  const auto ld = counter_total(ex, "ld_sectors"), st = counter_total(ex, "st_sectors");
  if (!g.bounded("global_sectors", "global sectors",
                 ld && st ? std::optional<double>(*ld + *st) : std::nullopt, bound_kind::at_most,
                 static_cast<double>(target.global_sectors), "x read once, out written once"))
    g.advise(
        "The kernel moves more global memory than reading x and writing the sums: keep the "
        "16 values in registers, not in a buffer of global memory.");
  return g.report();
}

}  // namespace cudalab::labs
