#include "cudalab/grade.hpp"

#include "cudalab/check.hpp"

namespace cudalab {

grade_outcome grade_exercise(const lab& l, int device) {
  if (!l.exercise) throw usage_error(l.id + " has no exercise");
  const exercise_spec& spec = *l.exercise;
  const variant* ex = l.find(spec.variant);
  if (!ex) throw error(l.id + ": the exercise variant '" + spec.variant + "' is not registered");

  run_request request;
  request.which = &l;
  request.device = device;
  request.sizes = {spec.size ? spec.size : l.default_size};
  request.repeat = 5;
  request.variants.push_back(ex);
  request.extra_metrics = spec.extra_metrics;
  for (const auto& name : spec.reference_variants) {
    const variant* v = l.find(name);
    if (!v) throw error(l.id + ": reference variant '" + name + "' is not registered");
    request.variants.push_back(v);
  }
  std::vector<result_row> rows = run_lab(request);
  if (!rows.front().counters.available)
    throw error("cannot grade without hardware counters: " + rows.front().counters.reason,
                "cudalab doctor explains how to enable counter access");
  grade_outcome outcome;
  outcome.exercise = rows.front();
  outcome.references.assign(rows.begin() + 1, rows.end());
  outcome.report = spec.grade(outcome.exercise, outcome.references);
  return outcome;
}

}  // namespace cudalab
