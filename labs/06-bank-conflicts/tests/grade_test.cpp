// Lab 06's grader on the CPU: rows whose "measured" counters are the access model's counts for
// a variant (exact for every count the grader reads; the data stage's own shared counters get an
// excess added, as the hardware's do), so every rule is exercised without a GPU. The GPU half
// (the generated tests of cmake/cudalab_graded_tests.cmake) grades the real kernels.
#include "transpose_grade.hpp"
#include "transpose_lab.hpp"
#include "transpose_model.hpp"

#include "cudalab/testing/grade_checks.hpp"
#include "cudalab/testing/shared_counts.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab::labs {
namespace {

constexpr std::size_t n = transpose_default_side;
using testing::describe;
using testing::line_fails;
using transpose_model::kernel;

// The transpose `k` of the square default side as the exercise, measured as the model predicts
// it, with `extra_conflicts` real conflicts on loads and on stores beyond the model's.
result_row modelled(kernel k, double extra_conflicts = 0.0, bool correct = true) {
  return testing::modelled_exercise_row(
      "06-bank-conflicts", n, transpose_model::predict(k, n, n), extra_conflicts,
      verify_result{correct, correct ? "all 1001 x 1001 elements exact"
                                     : "1002001 of 1002001 elements wrong"});
}

TEST(transpose_grade, the_conflict_free_tiles_pass_every_line) {
  for (kernel k : {kernel::padded, kernel::swizzled, kernel::tile_rows, kernel::tile64_rows,
                   kernel::tile64_vec4, kernel::tile64_vec4_row_order}) {
    const grade_report g = grade_transpose(modelled(k), {});
    EXPECT_TRUE(g.passed()) << static_cast<int>(k) << "\n" << describe(g);
    EXPECT_EQ(g.lines.size(), 5u);
  }
}

// A transpose whose lanes take turns (each access its own request: one sector a request) passes
// both sectors lines; its 32 times the requests fail.
TEST(transpose_grade, one_lane_at_a_time_fails_on_requests) {
  result_row r = modelled(kernel::padded);
  for (const char* requests : {"ld_requests", "st_requests"})
    r.counters.totals[find_metric(requests)->cupti_name] *= 32;
  const grade_report g = grade_transpose(r, {});
  EXPECT_FALSE(g.passed()) << describe(g);
  testing::expect_line_verdicts(
      g, {"requests"}, {"ld_sectors_per_request", "st_sectors_per_request", "shared_conflicts"});
  EXPECT_NE(g.hint().find("times the requests"), std::string::npos) << g.hint();
}

TEST(transpose_grade, the_plain_tile_fails_on_conflicts_only_with_a_hint) {
  const grade_report g = grade_transpose(modelled(kernel::shared_tile), {});
  EXPECT_FALSE(g.passed()) << describe(g);
  testing::expect_line_verdicts(g, {"shared_conflicts"},
                                {"ld_sectors_per_request", "st_sectors_per_request"});
  EXPECT_NE(g.hint().find("pad"), std::string::npos) << g.hint();
}

TEST(transpose_grade, each_naive_transpose_fails_on_its_strided_side) {
  const grade_report row = grade_transpose(modelled(kernel::naive_row_read), {});
  EXPECT_FALSE(row.passed());
  testing::expect_line_verdicts(row, {"st_sectors_per_request"}, {"ld_sectors_per_request"});
  EXPECT_FALSE(line_fails(row, "shared_conflicts"));  // no shared memory, no conflict
  EXPECT_NE(row.hint().find("stores"), std::string::npos) << row.hint();
  const grade_report col = grade_transpose(modelled(kernel::naive_col_read), {});
  EXPECT_FALSE(col.passed());
  testing::expect_line_verdicts(col, {"ld_sectors_per_request"}, {"st_sectors_per_request"});
}

TEST(transpose_grade, a_wrong_transpose_fails_on_correctness) {
  const grade_report g = grade_transpose(modelled(kernel::padded, 0, false), {});
  EXPECT_FALSE(g.passed());
  EXPECT_TRUE(line_fails(g, "correct"));
}

// The data stage's excess (a quarter of the wavefronts here) is not a conflict; one real
// conflict is.
TEST(transpose_grade, one_conflict_fails_and_the_data_stage_excess_does_not) {
  EXPECT_TRUE(grade_transpose(modelled(kernel::padded), {}).passed());
  const grade_report one_more = grade_transpose(modelled(kernel::padded, 1), {});
  EXPECT_FALSE(one_more.passed());
  EXPECT_TRUE(line_fails(one_more, "shared_conflicts"));
}

TEST(transpose_grade, without_counters_it_fails_and_says_why) {
  testing::expect_fails_without_counters_and_says_why(modelled(kernel::padded), grade_transpose);
}

TEST(transpose_grade, targets_are_the_models_padded_figures_at_the_odd_side) {
  const transpose_targets t = transpose_grade_targets(n);
  const model::access_counts c = transpose_model::predict(kernel::padded, n, n);
  EXPECT_DOUBLE_EQ(t.ld_sectors_per_request, static_cast<double>(c.global_ld_sectors) /
                                                 static_cast<double>(c.global_ld_requests));
  // Rows of 1001 floats start off sector boundaries: between 4 and 5 sectors a request.
  EXPECT_GT(t.ld_sectors_per_request, 4.0);
  EXPECT_LT(t.ld_sectors_per_request, 5.0);
  EXPECT_DOUBLE_EQ(t.ld_sectors_per_request, t.st_sectors_per_request);  // square: same runs
}

}  // namespace
}  // namespace cudalab::labs
