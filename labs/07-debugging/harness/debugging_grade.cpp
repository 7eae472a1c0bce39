// `cudalab check 07` (debugging_grade.hpp). The untouched exercise has both bugs: memcheck sees
// the tail block's stores past the array, racecheck the neighbours' slots read before they are
// written. Its answer may still come out right: the race loses only when a warp runs ahead.
#include "debugging_grade.hpp"

#include "cudalab/grade.hpp"

#include "sanitizer_run.hpp"

#include <optional>
#include <string>

namespace cudalab::labs {
namespace {

const char* fix_for(const std::string& tool) {
  if (tool == "memcheck")
    return "memcheck saw writes past the array: the grid rounds up to whole blocks, so the tail "
           "block has threads past n; guard the store with if (i < n).";
  return "racecheck saw a thread read a tile slot that another thread writes with no barrier "
         "between: put __syncthreads() after filling the tile and before reading the "
         "neighbours.";
}

}  // namespace

grade_report grade_debugging(const result_row& ex, const std::vector<result_row>& references) {
  grade_sheet g(ex,
                "The blur is wrong: every thread must see its neighbours' values, which other "
                "threads load into the tile.");

  // The global traffic, held to the fixed kernel's in this run: a tile moved to global memory
  // (where racecheck does not look) or neighbours reread from global memory fail here.
  const result_row* fixed = nullptr;
  for (const result_row& r : references)
    if (r.variant_name == debugging_reference_variant) fixed = &r;
  struct traffic_line {
    const char* key;
    const char* label;
    const char* advice;
  };
  static const traffic_line lines[] = {
      {"ld_sectors", "ld sectors",
       "The kernel reads more of global memory than the fixed blur: each element is loaded once "
       "into the shared tile, and neighbours are read from the tile, not from global memory."},
      {"st_sectors", "st sectors",
       "The kernel writes more of global memory than the fixed blur: one store an element of "
       "out, none past it, and no tile in global memory."}};
  if (!g.counters_missing(ex)) {
    for (const traffic_line& t : lines) {
      const std::optional<double> bound = fixed ? counter_total(*fixed, t.key) : std::nullopt;
      if (!g.bounded(t.key, t.label, bound ? counter_total(ex, t.key) : std::nullopt,
                     bound_kind::at_most, bound.value_or(0),
                     std::string(debugging_reference_variant) + ", measured in this run"))
        g.advise(t.advice);
    }
  }

  // Without the sanitizer, the canary band after out: a write past the output that lands in an
  // allocation's slack, where no answer shows it, is seen here too, and so is a kernel that
  // guards its stores only when compute-sanitizer is attached.
  if (const std::optional<std::size_t> hit = ex.overwritten_past_outputs) {
    if (!g.line("canary", *hit == 0,
                "canary after out, run without the sanitizer: " + std::to_string(*hit) +
                    " words overwritten"))
      g.advise(
          "The kernel writes past the end of out in a run without the sanitizer: every "
          "store needs its guard, if (i < n), in every run.");
  } else {
    g.line("canary", false, "canary after out n/a: the run kept no band after the output");
    g.advise("The canary band is the grader's: run `cudalab check 07`.");
  }

  const std::string sanitizer = find_compute_sanitizer();
  std::string answers;     // each sanitized run's verdict on the answer
  bool answers_ok = true;  // every sanitized run reported a right answer
  for (const std::string& tool : exercise_tools()) {
    if (sanitizer.empty()) {
      g.line(tool, false, tool + ": n/a (compute-sanitizer not found)");
      g.advise("The check runs compute-sanitizer and cannot pass without it: " +
               how_to_get_compute_sanitizer() + ".");
      continue;
    }
    const sanitized_run run =
        run_under_sanitizer(sanitizer, tool, ex.lab_id, ex.variant_name, ex.config.size);
    const sanitizer_report& r = run.report;
    std::string line = tool + ": ";
    bool ok = false;
    if (r.device_unsupported) {
      line += "n/a (compute-sanitizer does not support this device)";
      g.line(tool, false, line);
      g.advise(
          "This compute-sanitizer does not support the GPU: install the CUDA Toolkit that "
          "matches the driver (cudalab doctor).");
      continue;
    } else if (!r.error_summary) {
      line += "did not finish (exit " + std::to_string(run.child.exit_code) + ")";
      const std::string& out = run.child.output;
      const std::size_t last = out.find_last_not_of('\n');
      if (last != std::string::npos) {
        const std::size_t start = out.rfind('\n', last);
        line += ": " + out.substr(start == std::string::npos ? 0 : start + 1,
                                  last - (start == std::string::npos ? 0 : start + 1) + 1);
      }
    } else if (r.errors() == 0) {
      line += "0 errors";
      ok = true;
    } else {
      line += std::to_string(r.errors()) + (r.errors() == 1 ? " error" : " errors");
      const std::vector<finding_group> groups = group_findings(r);
      if (!groups.empty()) line += " (" + describe(groups.front()) + ")";
    }
    if (!g.line(tool, ok, line))
      g.advise(r.error_summary
                   ? std::string(fix_for(tool))
                   : "The run under " + tool +
                         " did not finish: run `cudalab run 07 "
                         "--variant exercise` under it to see why (scripts/sanitize.sh).");
    const bool right = run.answer && run.answer->ok;
    answers_ok = answers_ok && right;
    answers += (answers.empty() ? "" : ", ") + tool + " " +
               (run.answer ? (right ? std::string("ok") : "wrong (" + run.answer->detail + ")")
                           : std::string("none written"));
  }
  // The answer under the sanitizer as without it: a kernel whose answer depends on whether
  // compute-sanitizer is attached fails here or on "correct". (A barrier added only under the
  // sanitizer is not caught: the race it hides may still give the right answer.)
  if (!sanitizer.empty() &&
      !g.line("sanitized_answers", answers_ok, "answers under compute-sanitizer: " + answers))
    g.advise("The blur must be right in every run, with the sanitizer attached and without.");
  return g.report();
}

}  // namespace cudalab::labs
