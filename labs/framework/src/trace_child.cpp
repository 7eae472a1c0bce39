#include "cudalab/trace_child.hpp"

#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"
#include "cudalab/unique_fd.hpp"
#include "cudalab/user_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

namespace cudalab {
namespace {

std::string tail_of(const std::string& path, std::size_t lines) {
  std::ifstream in(path);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  const std::size_t from = all.size() > lines ? all.size() - lines : 0;
  std::string out;
  for (std::size_t i = from; i < all.size(); ++i) out += "\n  " + all[i];
  return out;
}

}  // namespace

trace_workspace::trace_workspace() = default;

trace_workspace::~trace_workspace() {
  if (const char* keep = std::getenv("CUDALAB_TRACE_KEEP"); keep && std::string(keep) == "1") {
    std::cerr << "cudalab: trace files kept in " << dir() << "\n";
    m_folder.keep();
  }
}

int trace_deadline_seconds(const std::vector<std::string>& arguments) {
  if (const char* text = std::getenv("CUDALAB_TRACE_TIMEOUT_S"); text && *text) {
    // Digits only, as every number the tool reads from its environment (no sign, no blank).
    const std::string digits = text;
    const bool whole =
        digits.size() <= 6 && digits.find_first_not_of("0123456789") == std::string::npos;
    const long seconds = whole ? std::stol(digits) : -1;
    if (seconds <= 0 || seconds > 86400)
      throw usage_error("CUDALAB_TRACE_TIMEOUT_S='" + shown(digits, 32) +
                        "': must be a whole number of seconds from 1 to 86400");
    return static_cast<int>(seconds);
  }
  // A traced point runs once, patched, at most a few seconds on the largest sizes; the base
  // covers the driver's start and module patching, and every 8 points (variants x sizes, listed
  // comma-separated after --variant and --size) add another base.
  const auto items_after = [&](const char* flag) {
    for (std::size_t i = 0; i + 1 < arguments.size(); ++i)
      if (arguments[i] == flag)
        return 1 +
               static_cast<int>(std::count(arguments[i + 1].begin(), arguments[i + 1].end(), ','));
    return 1;
  };
  const int points = items_after("--variant") * items_after("--size");
  constexpr int base_seconds = 120;
  return base_seconds * ((points + 7) / 8);
}

namespace {

// Runs the child with `injection` added to its environment, in its own process group;
// -1 - signal when it did not exit. `log`: where its output goes (-1: this process's own
// stdout and stderr), `log_name` how the deadline's message names it. When the child has not
// ended after trace_deadline_seconds, the whole group is killed (the driver may have started
// helper processes) and an error says so: a traced run never makes the caller wait forever.
int spawn_traced(const std::string& executable, const std::vector<std::string>& arguments,
                 const std::vector<std::pair<std::string, std::string>>& injection, int log,
                 const std::string& log_name) {
  child_spec spec;
  spec.argv = {executable};
  spec.argv.insert(spec.argv.end(), arguments.begin(), arguments.end());
  spec.set_environment = injection;
  spec.output_fd = log;
  spec.deadline_seconds = trace_deadline_seconds(arguments);
  std::cout.flush();
  std::cerr.flush();
  const child_result r = run_child(spec);
  if (r.timed_out)
    throw error("the traced run did not finish in " + std::to_string(spec.deadline_seconds) +
                    " s; its log: " + log_name,
                "CUDALAB_TRACE_TIMEOUT_S sets the deadline; CUDALAB_TRACE_DEBUG=1 logs the "
                "tracer's stages to that log");
  return r.signal ? -1 - r.signal : r.exit_code;
}

}  // namespace

void run_traced_child(const std::string& executable, const std::vector<std::string>& arguments,
                      const trace::tracer_install& install, const trace_workspace& workspace) {
  run_injected_child(
      executable, arguments,
      trace::traced_child_environment(install, workspace.trace_file(), workspace.dir()), workspace);
}

void run_injected_child(const std::string& executable, const std::vector<std::string>& arguments,
                        const std::vector<std::pair<std::string, std::string>>& injection,
                        const trace_workspace& workspace) {
  unique_fd log(::open(workspace.log_file().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
  if (!log) throw error("cannot write " + workspace.log_file() + ": " + std::strerror(errno));
  const int code = spawn_traced(executable, arguments, injection, log.get(), workspace.log_file());
  log.reset();
  // 0: ok; 1: a variant failed verification (the untraced run says so too).
  if (code != 0 && code != 1)
    throw error(
        "the traced run failed (" +
            (code >= 0 ? "exit " + std::to_string(code) : "signal " + std::to_string(-1 - code)) +
            "); its last lines:" + tail_of(workspace.log_file(), 8),
        "CUDALAB_TRACE_KEEP=1 keeps " + workspace.dir() +
            " (trace.jsonl, child.log); scripts/trace-selftest.sh gathers diagnostics");
}

int run_traced_child_shown(const std::string& executable, const std::vector<std::string>& arguments,
                           const trace::tracer_install& install, const trace_workspace& workspace) {
  const int code = spawn_traced(
      executable, arguments,
      trace::traced_child_environment(install, workspace.trace_file(), workspace.dir()), -1,
      "the output above");
  if (code < 0) throw error("the traced run ended by signal " + std::to_string(-1 - code));
  return code;
}

}  // namespace cudalab
