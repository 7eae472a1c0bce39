// What the labs' CPU tests of their graders share: made-up result rows' global counters, a
// report printed for a failure message, a line's verdict by its key, the failure without
// counters, and the check that the counters a grade needs configure offline. Include only from
// test sources (it needs GoogleTest).
#pragma once

#include "cudalab/detail/cupti_host_config.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/model/access_model.hpp"
#include "cudalab/result_row.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace cudalab::testing {

// The exercise's row of lab `lab_id` as the runner fills it for a grade: measured at `c`,
// verified as `v`, with counters (none yet).
inline result_row measured_exercise_row(const std::string& lab_id, const launch_config& c,
                                        const verify_result& v) {
  result_row r;
  r.lab_id = lab_id;
  r.variant_name = "exercise";
  r.config = c;
  r.measured = true;
  r.verification = v;
  r.counters.available = true;
  return r;
}

// Sets the global load and store requests and sectors of `totals` (keyed by CUPTI name) to
// those of `c`.
inline void set_global_totals(std::map<std::string, double>& totals,
                              const model::access_counts& c) {
  totals["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] =
      static_cast<double>(c.global_ld_requests);
  totals["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] =
      static_cast<double>(c.global_ld_sectors);
  totals["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] =
      static_cast<double>(c.global_st_requests);
  totals["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] =
      static_cast<double>(c.global_st_sectors);
}

inline std::string describe(const grade_report& g) {
  std::string s = g.passed() ? "PASS\n" : "FAIL\n";
  for (const grade_line& line : g.lines)
    s += "  [" + line.key + "] " + line.text + grade_verdict(line.ok) + "\n";
  return s + "hint: " + g.hint();
}

// A line as `cudalab check` prints it: its text and its verdict.
inline std::string printed(const grade_line& line) { return line.text + grade_verdict(line.ok); }

// The report's line with `key`; a test failure (and a line that is not ok) when there is none.
inline grade_line line_of(const grade_report& g, const std::string& key) {
  if (const grade_line* line = g.find(key)) return *line;
  ADD_FAILURE() << "no line " << key << "\n" << describe(g);
  grade_line missing;
  missing.key = key;
  missing.text = "(missing)";
  return missing;
}

// The line with `key` as `cudalab check` prints it.
inline std::string printed(const grade_report& g, const std::string& key) {
  return printed(line_of(g, key));
}

// Whether the report's line with `key` fails; a test failure when there is none.
inline bool line_fails(const grade_report& g, const std::string& key) {
  const grade_line* line = g.find(key);
  if (!line) ADD_FAILURE() << "no line " << key << "\n" << describe(g);
  return line && !line->ok;
}

// Expects the lines of `g` with each key of `failing` to fail and of `passing` to pass.
inline void expect_line_verdicts(const grade_report& g, std::initializer_list<const char*> failing,
                                 std::initializer_list<const char*> passing) {
  for (const char* key : failing) EXPECT_TRUE(line_fails(g, key)) << key << "\n" << describe(g);
  for (const char* key : passing) EXPECT_FALSE(line_fails(g, key)) << key << "\n" << describe(g);
}

// Expects exactly the lines with the keys of `failing` to fail, every other line to pass.
inline void expect_fails_only_on(const grade_report& g,
                                 std::initializer_list<const char*> failing) {
  for (const grade_line& line : g.lines) {
    const bool should_fail = std::any_of(failing.begin(), failing.end(),
                                         [&](const char* key) { return line.key == key; });
    EXPECT_EQ(line.ok, !should_fail) << "[" << line.key << "] " << line.text;
  }
  for (const char* key : failing) EXPECT_NE(g.find(key), nullptr) << "no line " << key;
}

// A grader given `row` with its counters unreadable (no permission) must fail it and send the
// learner to `cudalab doctor`.
inline void expect_fails_without_counters_and_says_why(
    result_row row, grade_report (*grade)(const result_row&, const std::vector<result_row>&)) {
  row.counters.available = false;
  row.counters.reason = "no counter permission";
  const grade_report g = grade(row, {});
  EXPECT_FALSE(g.passed());
  EXPECT_NE(g.hint().find("cudalab doctor"), std::string::npos);
}

// The set `cudalab check` asks for (the lab's default metrics and the grade's extra ones)
// configures for GH100 without a GPU: a misspelt grading metric fails here, not on the GPU.
inline void expect_grading_metrics_configure_offline(const lab& l) {
  std::vector<std::string> metrics = l.default_metrics;
  for (const auto& m : l.exercise->extra_metrics) metrics.push_back(m);
  metrics = resolve_metric_names(metrics);
  const detail::cupti_host_config config("GH100", {}, metrics);
  EXPECT_GE(config.passes(), 1u);
  EXPECT_EQ(config.metrics(), metrics);
}

}  // namespace cudalab::testing
