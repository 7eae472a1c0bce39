#include "cudalab/grade.hpp"
#include "cudalab/cell_format.hpp"
#include "cudalab/graded_activity.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/runner.hpp"

#include "cudalab/check.hpp"
#include "cudalab/format_text.hpp"
#include "cudalab/host_data.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cudalab {

grade_outcome grade_exercise(const lab& l, int device) {
  if (!l.exercise) throw usage_error(l.id + " has no exercise");
  const variant* ex = l.find(l.exercise->variant);
  if (!ex)
    throw error(l.id + ": the exercise variant '" + l.exercise->variant + "' is not registered");
  return grade_as_exercise(l, *ex, device);
}

grade_outcome grade_as_exercise(const lab& l, const variant& candidate, int device) {
  if (!l.exercise) throw usage_error(l.id + " has no exercise");
  const exercise_spec& spec = *l.exercise;
  // A canary band after the outputs of the variants that keep their outputs exact-size (lab
  // 07), as wide as a block's overshoot can reach: in this process only, never in the runs
  // under compute-sanitizer, which need the exact size.
  const output_canary_scope canary(1024);

  run_request request;
  request.which = &l;
  request.device = device;
  request.sizes = {spec.size ? spec.size : l.default_size};
  request.repeat = 5;
  request.variants.push_back(&candidate);
  std::vector<std::string> extra = spec.extra_metrics;
  std::vector<std::string> paths = other_memory_paths();
  paths.insert(paths.end(), spec.more_other_memory_paths.begin(),
               spec.more_other_memory_paths.end());
  if (spec.bound_other_memory_paths) extra.insert(extra.end(), paths.begin(), paths.end());
  request.extra_metrics = resolve_metric_names(extra);
  request.counters = spec.needs_counters;
  request.fresh_inputs_for_counters = true;
  request.verify_every_launch = true;
  // A candidate that is itself a reference (a solution graded by the tests) runs once: two rows
  // of one point would share its traced launches, and each would count both.
  bool candidate_is_reference = false;
  std::vector<std::string> reference_names = spec.reference_variants;
  if (!spec.speed_reference.empty() && std::find(reference_names.begin(), reference_names.end(),
                                                 spec.speed_reference) == reference_names.end())
    reference_names.push_back(spec.speed_reference);
  for (const auto& name : reference_names) {
    const variant* v = l.find(name);
    if (!v) throw error(l.id + ": reference variant '" + name + "' is not registered");
    if (v == &candidate)
      candidate_is_reference = true;
    else
      request.variants.push_back(v);
  }
  // A graded sweep variant, candidate or reference, runs at the exercise's points only.
  for (const variant* v : request.variants)
    if (v->sweep && !spec.graded_sweep_values.empty())
      request.sweep.values[v->sweep->name] = spec.graded_sweep_values;
  std::vector<result_row> rows = run_lab(request);
  // Counters refused are an error; a launch that ran no kernel is graded (and fails) as it is.
  if (spec.needs_counters && !rows.front().counters.available &&
      rows.front().counters.reason != counter_cell::no_kernel_ran)
    throw error("cannot grade without hardware counters: " + rows.front().counters.reason,
                "cudalab doctor explains how to enable counter access");
  grade_outcome outcome;
  outcome.exercise = rows.front();
  outcome.references.assign(rows.begin() + 1, rows.end());
  if (candidate_is_reference) outcome.references.push_back(rows.front());
  outcome.report = spec.grade(outcome.exercise, outcome.references);
  if (!spec.speed_reference.empty()) {
    const result_row* reference = nullptr;
    for (const result_row& r : outcome.references)
      if (r.variant_name == spec.speed_reference) reference = &r;
    add_speed_line(outcome.report, outcome.exercise, reference, spec.slowest_factor);
  }
  if (spec.bound_other_memory_paths && outcome.exercise.counters.available)
    add_other_memory_paths_line(outcome.report, outcome.exercise, outcome.references, paths);
  // What one more launch of each runs, recorded apart from the measured runs (the counters'
  // and the tracer's processes may not hold CUPTI's callbacks): the fixed references bound the
  // copies the exercise may make.
  CUDALAB_CHECK_CUDA(cudaSetDevice(device));
  verify_result inventoried{true, ""};
  outcome.activity = graded_launch_activity(candidate, outcome.exercise.config, &inventoried);
  std::vector<gpu_activity> reference_activity;
  for (const result_row& r : outcome.references) {
    const variant* v = l.find(r.variant_name);
    if (v == &candidate)
      reference_activity.push_back(outcome.activity);
    else if (v && v->role == variant_role::fixed)
      reference_activity.push_back(graded_launch_activity(*v, r.config));
  }
  // Lab 07's planted bugs may answer wrong in one launch and right in another: only the
  // inventoried launch of a candidate whose measured run was right must stay right.
  add_activity_lines(outcome.report, outcome.activity, reference_activity,
                     candidate.role == variant_role::exercise,
                     outcome.exercise.verification.ok ? &inventoried : nullptr);
  return outcome;
}

const std::vector<std::string>& other_memory_paths() {
  static const std::vector<std::string> paths = {
      "global_atom_inst", "global_red_inst", "texture_inst",    "generic_ld_inst",
      "generic_st_inst",  "tma_inst",        "dshared_inst",    "shared_atom_inst",
      "ldsm_inst",        "stsm_inst",       "surface_ld_inst", "surface_st_inst"};
  return paths;
}

void add_other_memory_paths_line(grade_report& report, const result_row& exercise,
                                 const std::vector<result_row>& references,
                                 const std::vector<std::string>& paths) {
  if (exercise.counters.from_trace) {
    // The tracer records each access by its address, not the instruction's class: it cannot
    // tell an atomic, a texture fetch or a generic access from a load. The line is left to the
    // counters rather than failing every solution graded without them; the verdict says so.
    report.add_unchecked("other_memory_paths",
                         "other memory paths n/a: the memory tracer does not count atomics, "
                         "texture or generic LD/ST");
    return;
  }
  double mine = 0, bound = 0;
  std::string used;  // the paths the exercise takes beyond every reference
  bool missing = false;
  for (const std::string& path : paths) {
    // A path the chip does not have (TMA before Hopper) is recorded missing: nothing to take.
    if (exercise.counters.missing.count(find_metric(path)->key())) continue;
    const auto value = counter_total(exercise, path.c_str());
    if (!value) {
      missing = true;
      continue;
    }
    double most = 0;  // what the references take of this path, at the most
    for (const result_row& r : references)
      most = std::max(most, counter_total(r, path.c_str()).value_or(0));
    mine += *value;
    bound += most;
    if (*value > most)
      used += (used.empty() ? "" : ", ") + formatted("%.0f ", *value) + find_metric(path)->meaning;
  }
  grade_line line;
  line.key = "other_memory_paths";
  line.ok = !missing && used.empty();
  if (missing) {
    line.text = "other memory paths n/a: a counter is missing";
    line.hint = "The atomic and texture counters were not collected (cudalab doctor).";
  } else {
    line.measured = mine;
    line.relation = "<=";
    line.bound = bound;
    line.bound_from =
        "atomics, texture, surfaces, generic, TMA, matrix/cluster/atomic shared: the references'";
    line.text = "other memory paths " + formatted("%.0f", mine) +
                " <= " + formatted("%.0f", bound) + " (" + line.bound_from + ")";
    if (!line.ok)
      line.hint = "The kernel moves data by a path the lesson's lines do not count (" + used +
                  "): move it with the plain loads and stores the lesson is about.";
  }
  report.lines.push_back(std::move(line));
}

const std::vector<std::string>& fp32_fma_metrics() {
  static const std::vector<std::string> metrics = {"ffma_thread_inst", "tensor_inst"};
  return metrics;
}

void add_fp32_fma_lines(grade_sheet& g, const result_row& ex) {
  const char* advice =
      "The lesson's product runs on the FP32 FMA pipes: compute each multiply-add with a float "
      "multiply-add, not a tensor-core instruction (wmma, mma) or another type.";
  if (ex.counters.from_trace) {
    g.unchecked(
        "ffma",
        "FFMA and tensor-core instructions n/a: the memory tracer sees memory accesses, not "
        "instructions");
    return;
  }
  if (!g.bounded("ffma", "FFMA", counter_total(ex, "ffma_thread_inst"), bound_kind::at_least,
                 ex.ideal.flops / 2, "n^3: each multiply-add an FP32 FFMA, a thread", "%.4g"))
    g.advise(advice);
  const auto missing = ex.counters.missing.find(find_metric("tensor_inst")->key());
  if (missing != ex.counters.missing.end())
    g.unchecked("tensor_inst", "tensor-core instructions n/a (" + missing->second +
                                   "): the FFMA line holds the arithmetic");
  else if (!g.bounded("tensor_inst", "tensor-core instructions", counter_total(ex, "tensor_inst"),
                      bound_kind::at_most, 0, "the lesson's product runs on the FMA pipes"))
    g.advise(advice);
}

void add_speed_line(grade_report& report, const result_row& exercise, const result_row* reference,
                    double slowest_factor) {
  if (timed_under_tracer(exercise)) {
    // Every kernel of the tracer's process runs patched: no time there is the learner's. The
    // lesson's own lines judge the kernel; this floor waits for a run with counters.
    report.add_unchecked("speed", "speed n/a: timed under the memory tracer, so not graded here");
    return;
  }
  grade_line line;
  line.key = "speed";
  const double mine = exercise.time.median_ms;
  const double theirs = reference ? reference->time.median_ms : 0;
  const std::string name = reference ? reference->variant_name : std::string("the reference");
  if (mine > 0 && theirs > 0) {
    line.measured = mine;
    line.relation = "<=";
    line.bound = slowest_factor * theirs;
    line.bound_from =
        formatted("%.0f", slowest_factor) + " x the median of " + name + ", timed in this run (ms)";
    line.ok = mine <= *line.bound;
    line.text = "speed " + cells::time_with_unit(mine) +
                " <= " + formatted("%.0f", slowest_factor) + " x " + cells::time_with_unit(theirs) +
                " (" + name + ", timed in this run)";
    if (!line.ok)
      line.hint = "The kernel takes " + formatted("%.1f", mine / theirs) + "x the time of " + name +
                  ": its lanes or warps wait on each other (one lane at a time, one thread doing "
                  "a block's work) where the lesson's kernel keeps them all busy.";
  } else {
    line.text = "speed n/a: the exercise and " + name + " must both be timed";
    line.hint = "The speed line needs both kernels timed.";
  }
  report.lines.push_back(std::move(line));
}

std::vector<const variant*> graded_variants(const lab& l) {
  std::vector<const variant*> out;
  if (!l.exercise) return out;
  if (l.exercise->graded_variants.empty()) {
    for (const auto& v : l.variants)
      if (v.role == variant_role::fixed || v.role == variant_role::naive ||
          v.role == variant_role::buggy)
        out.push_back(&v);
    return out;
  }
  for (const auto& name : l.exercise->graded_variants) {
    const variant* v = l.find(name);
    if (!v) throw error(l.id + ": graded variant '" + name + "' is not registered");
    out.push_back(v);
  }
  return out;
}

bool report_missing_counters(const result_row& ex, grade_report& g) {
  if (ex.counters.available) return false;
  g.add("counters", false, "counters: n/a (" + ex.counters.reason + ")",
        ex.counters.reason == counter_cell::no_kernel_ran
            ? "The launch ran no kernel: the lesson's kernel must do the work."
            : "Grading needs hardware counters; cudalab doctor explains how to enable "
              "them.");
  return true;
}

std::optional<double> counter_total(const result_row& row, const char* metric) {
  if (!row.counters.available) return std::nullopt;
  return row.counters.get(metric);
}

std::optional<double> counter_per_request(const result_row& row, const char* counter,
                                          const char* requests) {
  const auto s = counter_total(row, counter), r = counter_total(row, requests);
  if (!s || !r || *r <= 0) return std::nullopt;
  return *s / *r;
}

bool within_bound(double measured, bound_kind kind, double bound) {
  const double slack = 1e-9 * std::max(1.0, std::abs(bound));
  return kind == bound_kind::at_most ? measured <= bound + slack : measured >= bound - slack;
}

grade_sheet::grade_sheet(const result_row& ex, const std::string& advice_if_wrong)
    : m_correct(ex.verification.ok) {
  line("correct", m_correct, "correct: " + ex.verification.detail);
  advise(advice_if_wrong);
}

void grade_sheet::unchecked(std::string key, std::string text) {
  m_report.add_unchecked(std::move(key), std::move(text));
}

bool grade_sheet::line(std::string key, bool ok, std::string text) {
  m_report.add(std::move(key), ok, std::move(text));
  return ok;
}

bool grade_sheet::bounded(std::string key, const std::string& label, std::optional<double> measured,
                          bound_kind kind, double bound, std::string bound_from,
                          const char* number_format) {
  grade_line l;
  l.key = std::move(key);
  l.measured = measured;
  l.relation = kind == bound_kind::at_most ? "<=" : ">=";
  l.bound = bound;
  l.ok = measured && within_bound(*measured, kind, bound);
  l.text = label + " " + (measured ? formatted(number_format, *measured) : std::string("n/a")) +
           " " + l.relation + " " + formatted(number_format, bound) + " (" + bound_from + ")";
  l.bound_from = std::move(bound_from);
  m_report.lines.push_back(std::move(l));
  return m_report.lines.back().ok;
}

void grade_sheet::advise(const std::string& sentence) {
  if (m_report.lines.empty()) return;
  std::string& hint = m_report.lines.back().hint;
  hint += (hint.empty() ? "" : " ") + sentence;
}

bool grade_sheet::counters_missing(const result_row& ex) {
  return report_missing_counters(ex, m_report);
}

}  // namespace cudalab
