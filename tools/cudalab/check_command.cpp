// `cudalab check <lab>`: grades the learner's exercise kernel from the current build by its
// verification and its hardware counters against the lab's fixed variants. It builds nothing:
// rebuild (cmake --build build/release) after editing labs/NN-name/exercise.cu.
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"
#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/report_options.hpp"
#include "cudalab/trace/trace_marks.hpp"
#include "cudalab/trace_child.hpp"
#include "cudalab/trace_run.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>

namespace cudalab::tool {

namespace {

// The grade as data, for autograders: every criterion line with its verdict, PASS or FAIL, the
// hint, and which witness measured the traffic.
void write_grade_json(std::ostream& out, const lab& l, const grade_outcome& outcome) {
  nlohmann::ordered_json doc;
  doc["lab"] = l.id;
  doc["exercise"] = l.exercise->file;
  doc["graded_from"] = outcome.exercise.counters.from_trace ? "trace" : "counters";
  doc["passed"] = outcome.report.passed;
  doc["criteria"] = nlohmann::ordered_json::array();
  const std::string pass = grade_verdict(true), fail = grade_verdict(false);
  const auto ends_with = [](const std::string& s, const std::string& end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
  };
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
  out << doc.dump(2) << "\n";
}

}  // namespace

int check_command(const args& a) {
  po::options_description options("check options");
  std::string device_text = "0", format_text = "table";
  options.add_options()("lab", po::value<std::string>(), "the lab whose exercise to grade")(
      "device,d", po::value(&device_text), "CUDA device index (default 0)")(
      "format,f", po::value(&format_text), "table or json (the grade as data, for autograders)");
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!parse_options(a, "cudalab check <lab> [--format table|json]", options, positional, vm))
    return exit_ok;
  const output_format format = parse_output_format(format_text);
  if (format == output_format::csv) throw usage_error("--format csv: check prints table or json");
  if (!vm.count("lab")) throw usage_error("check needs a lab: cudalab check 04-coalescing");
  const lab* l = &lab_named(vm["lab"].as<std::string>());
  // The trace deadline the counters-refused fallback would use: bad input before any work.
  if (!l->exercise) throw usage_error(l->id + " has no exercise to check");
  const int device = parse_int_option("--device", device_text, 0, 1 << 20);

  std::string why;
  if (cuda_device_count(&why) == 0) throw no_device_error(why);
  // Counters refused: grade from the memory tracer instead. This program runs again with the
  // tracer injected; in there the runner fills the counters from the trace (trace_run.hpp).
  if (!trace::tracing_this_process()) {
    const counter_availability counters = counter_session::probe(device);
    if (!counters.ok()) {
      const trace::tracer_install install = trace::tracer_install_here();
      const trace::tracer_availability t =
          trace::check_tracer(install, trace::tracer_environment_here());
      if (t.ok) {
        std::cerr << "cudalab: note: counters refused (" << counters.reason
                  << "): grading from the memory tracer (docs/metrics.md)\n";
        const trace_workspace workspace;
        return run_traced_child_shown(
            this_executable(),
            args{"check", l->id, "--device", std::to_string(device), "--format", format_text},
            install, workspace);
      }
      std::cerr << "cudalab: note: no tracer to stand in for the counters: " << t.reason
                << "\n  fix: " << t.fix << "\n";
    }
  }
  const grade_outcome outcome = grade_exercise(*l, device);
  if (format == output_format::json) {
    write_grade_json(std::cout, *l, outcome);
    return outcome.report.passed ? exit_ok : exit_failure;
  }
  std::cout << "cudalab check " << l->id << ": " << l->exercise->file << "\n";
  if (outcome.exercise.counters.from_trace)
    std::cout << "  (graded from the memory tracer: the hardware counters were refused)\n";
  for (const auto& line : outcome.report.lines) std::cout << "  " << line << "\n";
  std::cout << (outcome.report.passed ? "PASS" : "FAIL") << "\n";
  if (!outcome.report.passed && !outcome.report.hint.empty())
    std::cout << "hint: " << outcome.report.hint << "\n";
  return outcome.report.passed ? exit_ok : exit_failure;
}

}  // namespace cudalab::tool
