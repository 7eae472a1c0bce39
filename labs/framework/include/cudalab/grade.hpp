// Grading the learner's exercise: run it beside the lab's fixed variants with counters, then
// apply the lab's grade function. Shared by `cudalab check` and the grader's tests.
#pragma once

#include "cudalab/gpu_activity.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/result_row.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cudalab {

struct grade_outcome {
  grade_report report;
  result_row exercise;
  std::vector<result_row> references;
  // What one launch of the exercise ran: its kernels, copies and memsets (graded_activity.hpp).
  gpu_activity activity;
};

// Throws counters_unavailable-derived errors as cudalab::error with the reason and fix:
// grading needs counters.
grade_outcome grade_exercise(const lab& l, int device);

// Grades `candidate`, one of the lab's variants, exactly as `cudalab check` grades the
// exercise: at the exercise's size, beside the same references, with the same counters. The
// grader's tests use it to show that the grader passes every fixed variant and fails every
// naive one.
grade_outcome grade_as_exercise(const lab& l, const variant& candidate, int device);

// Adds the line "speed" (exercise_spec::speed_reference): the exercise's median time at most
// `slowest_factor` times `reference`'s, both timed in this run; fails the report when it is
// more, or when either was not timed. Timed under the memory tracer, it says so and passes: the
// lesson's lines still judge the kernel.
void add_speed_line(grade_report& report, const result_row& exercise, const result_row* reference,
                    double slowest_factor);

// The variants the grader's tests grade as the exercise (exercise_spec::graded_variants, or
// every fixed, naive and buggy variant); throws cudalab::error naming one that is missing.
std::vector<const variant*> graded_variants(const lab& l);

// The metrics of the line "other memory paths" (exercise_spec::bound_other_memory_paths).
const std::vector<std::string>& other_memory_paths();
// Adds that line to `report`: the exercise's total of `paths` at most the largest
// of the references', naming each path it used beyond them; fails the report when it is not.
void add_other_memory_paths_line(grade_report& report, const result_row& exercise,
                                 const std::vector<result_row>& references,
                                 const std::vector<std::string>& paths = other_memory_paths());

// When `ex` has no counters (and no trace standing in for them): adds the line that says why,
// sets the hint that tells how to enable them, and returns true, since the traffic lines
// cannot be graded.
bool report_missing_counters(const result_row& ex, grade_report& g);

// A counter's total in `row` by short or CUPTI name; nullopt when the row has no counters or
// not this one.
std::optional<double> counter_total(const result_row& row, const char* metric);

// A counter's total a request (sectors or bytes a request), nullopt when either total is
// missing or no request was made.
std::optional<double> counter_per_request(const result_row& row, const char* counter,
                                          const char* requests);

// True when `row` was timed in a process the memory tracer instruments (check's fallback where
// counters are refused): every kernel there runs patched, so its time is not the learner's.
inline bool timed_under_tracer(const result_row& row) { return row.counters.from_trace; }

// Which side of its bound a measured figure must stay on.
enum class bound_kind { at_most, at_least };

// A grader's report written a criterion at a time: each line a key, its text and verdict, and
// where it compares a figure with a bound, both numbers and where the bound comes from.
class grade_sheet {
 public:
  // Opens with the criterion every grader starts from, key "correct": `ex` matches its CPU
  // reference; `advice_if_wrong` is that line's hint.
  grade_sheet(const result_row& ex, const std::string& advice_if_wrong);

  bool correct() const { return m_correct; }
  // Adds line `key` reading `text`, judged `ok`; returns `ok`.
  bool line(std::string key, bool ok, std::string text);
  // Adds an n/a line that passes unchecked (grade_line::unchecked).
  void unchecked(std::string key, std::string text);
  // Adds line `key` reading "<label> <measured> <= <bound> (<bound_from>)" (">=" for at_least),
  // the numbers printed with `number_format`; ok when `measured` stays on its side of `bound`.
  // A missing figure reads "n/a" and fails. Returns the verdict.
  bool bounded(std::string key, const std::string& label, std::optional<double> measured,
               bound_kind kind, double bound, std::string bound_from,
               const char* number_format = "%.0f");
  // Adds a sentence to the hint of the line added last (shown when that line fails).
  void advise(const std::string& sentence);
  // report_missing_counters on this sheet: true when `ex` has no counters, and then report()
  // says why and how to enable them.
  bool counters_missing(const result_row& ex);
  const grade_report& report() const { return m_report; }

 private:
  grade_report m_report;
  bool m_correct = false;
};

// Whether `measured` stays on its side of `bound`, with room for the rounding of quotients.
bool within_bound(double measured, bound_kind kind, double bound);

// The metrics add_fp32_fma_lines reads, for exercise_spec::extra_metrics.
const std::vector<std::string>& fp32_fma_metrics();
// Adds the lines "ffma" (at least n^3 FP32 FFMAs, thread-level: ex.ideal.flops / 2) and
// "tensor_inst" (none) for a lesson whose product runs on the FP32 FMA pipes (labs 03 and 08):
// a TF32 wmma product meets the FP32 tolerance and stages tiles as they do: its traffic alone does
// not give it away. Timed under the
// memory tracer, which sees memory accesses and not instructions, one line says so and passes;
// on a chip whose profiler cannot count tensor-core instructions apart, the FFMA line alone
// holds the arithmetic.
void add_fp32_fma_lines(grade_sheet& g, const result_row& ex);

}  // namespace cudalab
