// Shared-memory counts in tests (docs/counters.md): totals made from the model's counts as the
// hardware reports them, for grader tests on the CPU, and the GPU tests' one assertion that a
// run's SASS-level wavefronts and derived conflicts equal the model's.
#pragma once

#include "cudalab/metrics.hpp"
#include "cudalab/model/access_model.hpp"
#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace cudalab::testing {

// Adds to `totals` (keyed by CUPTI name) the SASS-level shared wavefronts of `c` with
// `extra_conflicts` more wavefronts on loads and on stores (real conflicts beyond the model's),
// and the data stage's counters with an excess of `pipe_excess` of the wavefronts (rounded
// down to whole wavefronts), which it also counts as conflicts. The derived conflicts are then
// the model's plus extra_conflicts, exactly.
inline void add_shared_totals(std::map<std::string, double>& totals, const model::access_counts& c,
                              double extra_conflicts = 0, double pipe_excess = 0.25) {
  const auto set = [&](const char* metric, double value) {
    totals[find_metric(metric)->cupti_name] = value;
  };
  const double ld = static_cast<double>(c.shared_ld_wavefronts) + extra_conflicts;
  const double st = static_cast<double>(c.shared_st_wavefronts) + extra_conflicts;
  set("shared_ld_wavefronts", ld);
  set("shared_st_wavefronts", st);
  const double ld_excess = std::floor(ld * pipe_excess), st_excess = std::floor(st * pipe_excess);
  set("pipe_ld_wavefronts", ld + ld_excess);
  set("pipe_st_wavefronts", st + st_excess);
  set("pipe_ld_conflicts",
      static_cast<double>(c.shared_ld_conflicts) + extra_conflicts + ld_excess);
  set("pipe_st_conflicts",
      static_cast<double>(c.shared_st_conflicts) + extra_conflicts + st_excess);
}

// Every shared count the model predicts, loads and stores, equals the run's `totals` (keyed by
// CUPTI name, derived metrics included or computable); the model must predict some traffic.
inline void expect_shared_counts_equal(const std::map<std::string, double>& totals,
                                       const model::access_counts& model) {
  EXPECT_GT(model.shared_ld_wavefronts + model.shared_st_wavefronts, 0u) << "no shared traffic";
  const auto predicted = model_values(model);
  for (const char* metric : {"shared_ld_wavefronts", "shared_st_wavefronts", "shared_ld_conflicts",
                             "shared_st_conflicts"}) {
    const auto measured = metric_value(totals, metric);
    ASSERT_TRUE(measured.has_value()) << metric << " was not collected";
    EXPECT_EQ(*measured, predicted.at(metric)) << metric;
  }
}

// The exercise's row of lab `lab_id` at side n (256 threads a block), verified as `v`, measured
// as the model's counts `c`: its global totals exact, its shared ones as add_shared_totals
// makes them with `extra_conflicts`. What the tiled labs' grader tests grade on the CPU.
inline result_row modelled_exercise_row(const std::string& lab_id, std::size_t n,
                                        const model::access_counts& c, double extra_conflicts,
                                        const verify_result& v) {
  result_row r = measured_exercise_row(lab_id, launch_config{n, 256, 0}, v);
  set_global_totals(r.counters.totals, c);
  add_shared_totals(r.counters.totals, c, extra_conflicts);
  return r;
}

}  // namespace cudalab::testing
