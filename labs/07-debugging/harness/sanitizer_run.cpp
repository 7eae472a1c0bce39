// Running a variant under compute-sanitizer in a child process (sanitizer_run.hpp).
#include "sanitizer_run.hpp"

#include "cudalab/check.hpp"
#include "cudalab/scratch_folder.hpp"
#include "cudalab/trace/tracer_support.hpp"

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cudalab::labs {
namespace {

bool is_executable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0;
}

// The verification of the report's first row: {"rows": [{"verified": "ok", "verify_detail"}]}.
std::optional<verify_result> answer_in(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.contains("rows") || !doc["rows"].is_array() || doc["rows"].empty())
    return std::nullopt;
  const nlohmann::json& row = doc["rows"].front();
  const auto text = [&](const char* key) {
    return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : std::string();
  };
  return verify_result{text("verified") == "ok", text("verify_detail")};
}

}  // namespace

std::string find_compute_sanitizer() {
  if (const char* set = std::getenv("COMPUTE_SANITIZER"); set && is_executable(set)) return set;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && is_executable(dir + "/compute-sanitizer"))
        return dir + "/compute-sanitizer";
  }
  const std::string cuda = "/usr/local/cuda/bin/compute-sanitizer";
  return is_executable(cuda) ? cuda : std::string();
}

std::string how_to_get_compute_sanitizer() {
  return "compute-sanitizer comes with the CUDA Toolkit (the cuda-sanitizer package, in "
         "/usr/local/cuda/bin); put it on PATH or name it in COMPUTE_SANITIZER";
}

std::string check_runner_program() {
  if (const char* set = std::getenv("CUDALAB_CHECK_RUNNER"); set && *set) return set;
  return this_executable();
}

// The child's environment leaves out the variables that inject cudalab's memory tracer.
// compute-sanitizer injects itself into the program it checks; with the tracer named in
// CUDA_INJECTION64_PATH too (a check run under --trace, or graded from the trace where counters
// are refused), it stops with "Target application terminated before first instrumented API
// call" (measured on the H100).
child_result run_captured(const std::vector<std::string>& argv) {
  child_spec spec;
  spec.argv = argv;
  spec.drop_environment = [](const std::string& name) { return trace::injects_the_tracer(name); };
  spec.capture_output = true;
  return run_child(spec);
}

sanitized_run run_under_sanitizer(const std::string& sanitizer, const std::string& tool,
                                  const std::string& lab, const std::string& variant,
                                  std::size_t size) {
  std::vector<std::string> argv{sanitizer, "--tool", tool == "leak" ? "memcheck" : tool};
  if (tool == "leak") argv.insert(argv.end(), {"--leak-check", "full"});
  const scratch_folder directory("sanitized");
  argv.insert(argv.end(),
              {"--print-limit", "20", check_runner_program(), "run", lab, "--variant", variant,
               "--no-counters", "--warmup", "0", "--repeat", "1", "--size", std::to_string(size),
               "--format", "json", "--output", directory.path() + "/run.json"});
  sanitized_run run;
  run.tool = tool;
  run.child = run_captured(argv);
  run.report = parse_sanitizer_output(run.child.output);
  run.answer = answer_in(directory.path() + "/run.json");
  return run;
}

}  // namespace cudalab::labs
