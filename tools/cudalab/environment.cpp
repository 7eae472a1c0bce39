#include "environment.hpp"

#include "cudalab/check.hpp"
#include "cudalab/trace_child.hpp"
#include "cudalab/trace_run.hpp"
#include "cudalab/user_text.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace cudalab::tool {
namespace {

// The value of `name`, or empty when it is unset or set to nothing (both mean "not asked").
std::string value_of(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

[[noreturn]] void refuse(const char* name, const std::string& value, const std::string& rule) {
  // One line within 120 columns for a value of up to 32 characters (docs/environment.md lists
  // the variables and what each takes).
  throw usage_error(std::string(name) + "='" + shown(value, 32) + "': " + rule);
}

// A switch: 1 turns it on, 0 or nothing leaves it off.
void check_switch(const char* name) {
  const std::string v = value_of(name);
  if (!v.empty() && v != "0" && v != "1") refuse(name, v, "must be 1 (on) or 0 (off)");
}

void check_whole_number(const char* name, long lowest, long highest, const char* unit) {
  const std::string v = value_of(name);
  if (v.empty()) return;
  const bool digits = v.size() <= 12 && v.find_first_not_of("0123456789") == std::string::npos;
  const long number = digits ? std::stol(v) : -1;
  if (!digits || number < lowest || number > highest)
    refuse(name, v,
           "must be a whole number of " + std::string(unit) + " from " + std::to_string(lowest) +
               " to " + std::to_string(highest));
}

// A program to run: an executable file.
void check_program(const char* name) {
  const std::string v = value_of(name);
  // access() alone passes a directory, whose search bit reads as execute.
  std::error_code ec;
  if (!v.empty() && (::access(v.c_str(), X_OK) != 0 || !std::filesystem::is_regular_file(v, ec)))
    refuse(name, v, "must name an executable file");
}

}  // namespace

void check_environment() {
  check_whole_number("CUDALAB_PROGRESS_AFTER_MS", 0, 3'600'000, "milliseconds");
  check_switch("CUDALAB_PHASE_TRACE");
  check_switch("CUDALAB_COUNTER_TRACE");
  check_switch("CUDALAB_TRACE_KEEP");
  check_switch("CUDALAB_TRACE_DEBUG");
  if (const std::string v = value_of("CUDALAB_COUNTERS_REFUSE");
      !v.empty() && v != "ERR_NVGPUCTRPERM" && v != "profiler_attached")
    refuse("CUDALAB_COUNTERS_REFUSE", v, "must be ERR_NVGPUCTRPERM or profiler_attached");
  if (!value_of("CUDALAB_TRACE_TIMEOUT_S").empty()) (void)trace_deadline_seconds({});
  // The traced child's files go under TMPDIR (trace_workspace): refuse one that cannot hold them
  // now, not after the work.
  if (const std::string v = value_of("TMPDIR"); !v.empty()) {
    std::error_code ec;
    if (v.front() != '/' || !std::filesystem::is_directory(v, ec) || ::access(v.c_str(), W_OK) != 0)
      refuse("TMPDIR", v, "must name a writable folder by its absolute path");
  }
  check_program("COMPUTE_SANITIZER");
  check_program("CUDALAB_CHECK_RUNNER");
}

}  // namespace cudalab::tool
