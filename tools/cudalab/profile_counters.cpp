#include "profile_counters.hpp"

#include "cudalab/check.hpp"

#include <filesystem>

namespace cudalab::tool {

counted_program count_kernel_functions(const std::vector<std::string>& argv,
                                       const trace::tracer_install& install, const std::string& dir,
                                       int deadline_seconds, bool pass_output) {
  if (install.sass_lines_library.empty())
    throw error(
        "this build has no SASS metrics library (libcudalab_sass_lines.so): the counters "
        "witness needs CUPTI's SASS Metrics API");
  counted_program counted;
  for (std::size_t function = 0, functions = 1; function < functions; ++function) {
    const std::string stem = dir + "/counters-" + std::to_string(function);
    std::filesystem::create_directories(stem);
    const std::string output = stem + "/lines.jsonl";
    child_spec spec;
    spec.argv = argv;
    // The whole process is the point: no marks, no point label.
    spec.set_environment = trace::sass_lines_child_environment(install, output, stem, "", function);
    spec.set_environment.emplace_back("CUDALAB_SASS_EVERY_LAUNCH", "1");
    spec.deadline_seconds = deadline_seconds;
    spec.capture_output = !(pass_output && function == 0);
    const child_result ended = run_child(spec);
    if (function == 0) counted.ended = ended;
    if (ended.signal != 0 || ended.timed_out) {
      counted.complete = false;
      counted.ended = ended;
    }
    const std::vector<trace::traced_launch> written = trace::read_trace_file(output);
    if (function == 0) {  // function 0 measured, the others named with the launches each made
      functions = written.size();
      counted.functions = written;
      continue;
    }
    trace::traced_launch& slot = counted.functions[function];
    if (written.size() != functions) {
      slot.error = "the program launched " + std::to_string(written.size()) +
                   " kernel functions in one run and " + std::to_string(functions) +
                   " in another: its runs differ, so one function a run cannot be counted";
      continue;
    }
    slot = written[function];
  }
  return counted;
}

}  // namespace cudalab::tool
