// `cudalab check <lab>`: grades the learner's exercise kernel from the current build by its
// verification and its hardware counters against the lab's fixed variants. It builds nothing:
// rebuild (cmake --build build/release) after editing labs/NN-name/exercise.cu.
#include "commands.hpp"
#include "grade_output.hpp"
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
#include "cudalab/user_text.hpp"

#include <cstdlib>
#include <iostream>

namespace cudalab::tool {

int check_command(const args& a) {
  po::options_description options("check options");
  std::string device_text = "0", format_text = "table";
  options.add_options()("lab", po::value<std::string>(), "the lab whose exercise to grade")(
      "device,d", po::value(&device_text), "CUDA device index (default 0)")(
      "format,f", po::value(&format_text), "table or json (the grade as data, for autograders)");
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!parse_options(a, "cudalab check <lab> [--format table|json] [--device N]", options,
                     positional, vm))
    return exit_ok;
  if (format_text != "table" && format_text != "json")
    throw usage_error("--format '" + shown(format_text, 32) + "': check prints table or json");
  const output_format format = parse_output_format(format_text);
  if (!vm.count("lab")) throw usage_error("check needs a lab: cudalab check 04-coalescing");
  const lab* l = &lab_named(vm["lab"].as<std::string>());
  // Bad input before any work.
  if (!l->exercise) throw usage_error(l->id + " has no exercise to check");
  const int device = parse_int_option("--device", device_text, 0, 1 << 20);
#if defined(CUDALAB_DEVICE_DEBUG)
  // -G turns every global access into a generic one and keeps loops rolled: the counts the grade
  // holds to its references would describe the debugger's code, not the learner's.
  throw usage_error("this debug build (-G) changes the counts check grades: use " +
                    std::string("build/release/tools/cudalab/cudalab check ") + l->number());
#endif

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
  if (format == output_format::json)
    write_grade_json(std::cout, *l, outcome);
  else
    write_grade_text(std::cout, *l, outcome);
  return outcome.report.passed() ? exit_ok : exit_failure;
}

}  // namespace cudalab::tool
