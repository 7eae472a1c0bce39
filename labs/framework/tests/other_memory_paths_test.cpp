// The line every plain-load lab's grade ends with: global atomics, reductions and texture
// fetches (paths the lesson's load and store lines do not count) at most the references'.
#include "cudalab/grade.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace cudalab {
namespace {

result_row counted(const std::string& name, const std::map<std::string, double>& paths) {
  result_row r;
  r.variant_name = name;
  r.counters.available = true;
  for (const std::string& path : other_memory_paths())
    r.counters.totals[find_metric(path)->cupti_name] = 0;
  for (const auto& [path, value] : paths) r.counters.totals[find_metric(path)->cupti_name] = value;
  return r;
}

grade_report graded(const result_row& exercise, const std::vector<result_row>& references) {
  grade_report report;
  add_other_memory_paths_line(report, exercise, references);
  return report;
}

TEST(other_memory_paths, plain_loads_and_stores_pass) {
  const grade_report g = graded(counted("exercise", {}), {counted("reference", {})});
  EXPECT_TRUE(g.passed());
  ASSERT_EQ(g.lines.size(), 1u);
  EXPECT_EQ(cudalab::testing::printed(g, "other_memory_paths"),
            "other memory paths 0 <= 0 (atomics, texture, surfaces, generic, TMA, "
            "matrix/cluster/atomic shared: the references')  ok");
  EXPECT_TRUE(g.hint().empty());
}

TEST(other_memory_paths, atomics_used_as_loads_fail_and_are_named) {
  const grade_report g =
      graded(counted("exercise", {{"global_atom_inst", 3 * 8192}}), {counted("reference", {})});
  EXPECT_FALSE(g.passed());
  EXPECT_FALSE(cudalab::testing::line_of(g, "other_memory_paths").ok);
  EXPECT_NE(g.hint().find("24576 global atomic instructions"), std::string::npos) << g.hint();
}

TEST(other_memory_paths, texture_fetches_and_reductions_fail_too) {
  for (const char* path : {"texture_inst", "global_red_inst", "generic_ld_inst", "generic_st_inst",
                           "tma_inst", "dshared_inst"}) {
    const grade_report g = graded(counted("exercise", {{path, 1}}), {counted("reference", {})});
    EXPECT_FALSE(g.passed()) << path;
  }
}

// The bound is the references' own use: a path the reference takes is the lesson's.
TEST(other_memory_paths, what_a_reference_takes_bounds_the_exercise) {
  const result_row reference = counted("reference", {{"global_red_inst", 64}});
  EXPECT_TRUE(graded(counted("exercise", {{"global_red_inst", 64}}), {reference}).passed());
  EXPECT_FALSE(graded(counted("exercise", {{"global_red_inst", 65}}), {reference}).passed());
}

// Counters refused, graded from the memory tracer: the line says what it cannot see and neither
// passes nor fails (a correct solution must not fail for want of permission).
TEST(other_memory_paths, from_the_tracer_the_line_is_left_to_the_counters) {
  result_row exercise = counted("exercise", {{"texture_inst", 5}});
  exercise.counters.from_trace = true;
  const grade_report g = graded(exercise, {counted("reference", {})});
  EXPECT_TRUE(g.passed());
  ASSERT_EQ(g.lines.size(), 1u);
  EXPECT_EQ(cudalab::testing::printed(g, "other_memory_paths")
                .rfind("other memory paths n/a: the memory tracer", 0),
            0u)
      << cudalab::testing::printed(g, "other_memory_paths");
  // Left to the counters, it fails no solution graded without them.
  EXPECT_TRUE(cudalab::testing::line_of(g, "other_memory_paths").ok);
  EXPECT_FALSE(cudalab::testing::line_of(g, "other_memory_paths").measured.has_value());
}

TEST(other_memory_paths, a_missing_counter_fails_and_says_so) {
  result_row exercise = counted("exercise", {});
  exercise.counters.totals.erase(find_metric("texture_inst")->cupti_name);
  const grade_report g = graded(exercise, {counted("reference", {})});
  EXPECT_FALSE(g.passed());
  EXPECT_NE(cudalab::testing::printed(g, "other_memory_paths").find("n/a: a counter is missing"),
            std::string::npos)
      << cudalab::testing::printed(g, "other_memory_paths");
}

// Before Hopper there is no TMA and no cluster: the session records those counters missing on
// the chip, and the line grades the paths the chip has.
TEST(other_memory_paths, a_path_the_chip_lacks_is_left_out) {
  result_row exercise = counted("exercise", {});
  exercise.counters.totals.erase(find_metric("tma_inst")->cupti_name);
  exercise.counters.missing[find_metric("tma_inst")->key()] = "not on GA102";
  const grade_report g = graded(exercise, {counted("reference", {})});
  EXPECT_TRUE(g.passed()) << cudalab::testing::printed(g, "other_memory_paths");
}

// A tile read with shared atomics or matrix loads escapes the LDS/STS lines: counted here.
TEST(other_memory_paths, shared_atomics_and_matrix_loads_fail_and_are_named) {
  for (const char* path : {"shared_atom_inst", "ldsm_inst", "surface_ld_inst"}) {
    const grade_report g = graded(counted("exercise", {{path, 1024}}), {counted("reference", {})});
    EXPECT_FALSE(g.passed()) << path;
    EXPECT_NE(g.hint().find("1024 " + find_metric(path)->meaning), std::string::npos) << g.hint();
  }
}

// A lab names more paths (lab 02: shared memory, where its array must not go).
TEST(other_memory_paths, a_lab_counts_the_paths_it_names_beside_them) {
  result_row exercise = counted("exercise", {});
  exercise.counters.totals[find_metric("shared_st_inst")->cupti_name] = 16 * 8192;
  exercise.counters.totals[find_metric("shared_ld_inst")->cupti_name] = 16 * 8192;
  result_row reference = counted("reference", {});
  for (result_row* r : {&exercise, &reference})
    for (const char* path : {"shared_ld_inst", "shared_st_inst"})
      r->counters.totals.emplace(find_metric(path)->cupti_name, 0);
  grade_report plain;
  add_other_memory_paths_line(plain, exercise, {reference});
  EXPECT_TRUE(plain.passed());
  std::vector<std::string> paths = other_memory_paths();
  paths.insert(paths.end(), {"shared_ld_inst", "shared_st_inst"});
  grade_report with_shared;
  add_other_memory_paths_line(with_shared, exercise, {reference}, paths);
  EXPECT_FALSE(with_shared.passed());
  EXPECT_EQ(cudalab::testing::line_of(with_shared, "other_memory_paths").measured, 2.0 * 16 * 8192);
}

}  // namespace
}  // namespace cudalab
