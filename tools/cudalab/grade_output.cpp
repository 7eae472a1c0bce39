#include "grade_output.hpp"

#include "cudalab/user_text.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace cudalab::tool {

namespace {

void write_fitted(std::ostream& out, const std::string& first, const std::string& next,
                  const std::string& text) {
  for (const std::string& line : hanging_lines(first, next, text, output_columns))
    out << line << "\n";
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

void write_grade_text(std::ostream& out, const lab& l, const grade_outcome& outcome) {
  write_fitted(out, "", "    ", "cudalab check " + l.id + ": " + l.exercise->file);
  if (outcome.exercise.counters.from_trace)
    out << "  (graded from the memory tracer: the hardware counters were refused)\n";
  for (const std::string& line : outcome.report.lines) write_fitted(out, "  ", "      ", line);
  out << (outcome.report.passed ? "PASS" : "FAIL") << "\n";
  if (!outcome.report.passed && !outcome.report.hint.empty())
    write_fitted(out, "hint: ", "      ", outcome.report.hint);
}

void write_grade_json(std::ostream& out, const lab& l, const grade_outcome& outcome) {
  nlohmann::ordered_json doc;
  doc["lab"] = l.id;
  doc["exercise"] = l.exercise->file;
  doc["graded_from"] = outcome.exercise.counters.from_trace ? "trace" : "counters";
  doc["passed"] = outcome.report.passed;
  doc["criteria"] = nlohmann::ordered_json::array();
  const std::string pass = grade_verdict(true), fail = grade_verdict(false);
  for (const std::string& line : outcome.report.lines) {
    nlohmann::ordered_json c;
    const bool ok = ends_with(line, pass), failed = ends_with(line, fail);
    c["criterion"] = ok       ? line.substr(0, line.size() - pass.size())
                     : failed ? line.substr(0, line.size() - fail.size())
                              : line;
    c["ok"] = ok       ? nlohmann::ordered_json(true)
              : failed ? nlohmann::ordered_json(false)
                       : nlohmann::ordered_json();
    doc["criteria"].push_back(std::move(c));
  }
  doc["hint"] = outcome.report.passed ? "" : outcome.report.hint;
  // What one launch of the exercise ran, as the kernels and copies lines judged it.
  nlohmann::ordered_json ran;
  ran["recorded"] = outcome.activity.available;
  if (!outcome.activity.available) ran["reason"] = outcome.activity.reason;
  ran["kernels"] = nlohmann::ordered_json::array();
  for (const launched_kernel& k : outcome.activity.kernels)
    ran["kernels"].push_back({{"name", k.name}, {"launched_by", k.launched_by}, {"own", k.own}});
  ran["copies"] = nlohmann::ordered_json::array();
  for (const data_movement& c : outcome.activity.copies)
    ran["copies"].push_back({{"what", c.what}, {"bytes", c.bytes}});
  doc["launch_ran"] = std::move(ran);
  out << doc.dump(2) << "\n";
}

}  // namespace cudalab::tool
