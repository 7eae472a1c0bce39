#include "grade_output.hpp"

#include "cudalab/user_text.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace cudalab::tool {

namespace {

void write_fitted(std::ostream& out, const std::string& first, const std::string& next,
                  const std::string& text) {
  for (const std::string& line : hanging_lines(first, next, text, output_columns))
    out << line << "\n";
}

}  // namespace

void write_grade_text(std::ostream& out, const lab& l, const grade_outcome& outcome) {
  write_fitted(out, "", "    ", "cudalab check " + l.id + ": " + l.exercise->file);
  if (outcome.exercise.counters.from_trace)
    out << "  (graded from the memory tracer: the hardware counters were refused)\n";
  for (const grade_line& line : outcome.report.lines)
    write_fitted(out, "  ", "      ", line.text + grade_verdict(line.ok));
  const bool passed = outcome.report.passed();
  const std::size_t unchecked = outcome.report.unchecked();
  if (passed && unchecked > 0)
    // A pass is only as good as what was checked: say what it stands without.
    write_fitted(out, "", "      ",
                 "PASS without " + std::to_string(unchecked) + " line" +
                     (unchecked == 1 ? "" : "s") +
                     " (n/a above): a run with hardware counters checks " +
                     (unchecked == 1 ? "it" : "them"));
  else
    out << (passed ? "PASS" : "FAIL") << "\n";
  if (!passed && !outcome.report.hint().empty())
    write_fitted(out, "hint: ", "      ", outcome.report.hint());
}

void write_grade_json(std::ostream& out, const lab& l, const grade_outcome& outcome) {
  nlohmann::ordered_json doc;
  doc["lab"] = l.id;
  doc["exercise"] = l.exercise->file;
  doc["graded_from"] = outcome.exercise.counters.from_trace ? "trace" : "counters";
  doc["passed"] = outcome.report.passed();
  doc["unchecked"] = outcome.report.unchecked();  // lines that passed as n/a
  // Each criterion as the grader recorded it: its key, its numbers and where its bound comes
  // from (null where the line is judged otherwise), its verdict and, when it failed, its hint.
  doc["criteria"] = nlohmann::ordered_json::array();
  const auto number = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
  };
  const auto text = [](const std::string& s) {
    return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s);
  };
  for (const grade_line& line : outcome.report.lines) {
    nlohmann::ordered_json c;
    c["key"] = line.key;
    c["criterion"] = line.text;
    c["measured"] = number(line.measured);
    c["relation"] = text(line.relation);
    c["bound"] = number(line.bound);
    c["bound_from"] = text(line.bound_from);
    c["ok"] = line.ok;
    c["checked"] = !line.unchecked;
    c["hint"] = line.ok ? "" : line.hint;
    doc["criteria"].push_back(std::move(c));
  }
  doc["hint"] = outcome.report.passed() ? "" : outcome.report.hint();
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
