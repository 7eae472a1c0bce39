#include "cudalab/trace_run.hpp"

#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/unique_fd.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace cudalab {
namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : separator) + i;
  return out;
}

std::string tail_of(const std::string& path, std::size_t lines) {
  std::ifstream in(path);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  const std::size_t from = all.size() > lines ? all.size() - lines : 0;
  std::string out;
  for (std::size_t i = from; i < all.size(); ++i) out += "\n  " + all[i];
  return out;
}

// What every run in a second process adds: counters off, one launch a point, no warm-up, the
// same device, its table as JSON in `output` (read back only for its failures).
void add_child_run_arguments(std::vector<std::string>& a, const run_request& request,
                             const std::string& output) {
  for (const char* fixed :
       {"--no-counters", "--warmup", "0", "--repeat", "1", "--format", "json", "--device"})
    a.push_back(fixed);
  a.push_back(std::to_string(request.device));
  a.push_back("--output");
  a.push_back(output);
}

}  // namespace

const std::vector<std::string>& traced_metrics() {
  static const std::vector<std::string> names = {
      "ld_requests",          "ld_sectors",           "st_requests",         "st_sectors",
      "shared_ld_wavefronts", "shared_st_wavefronts", "shared_ld_conflicts", "shared_st_conflicts"};
  return names;
}

void attach_traces(std::vector<result_row>& rows, const std::vector<trace::traced_launch>& launches,
                   const std::string& missing) {
  std::map<std::string, std::vector<trace::traced_launch>> by_label;
  for (const auto& l : launches) by_label[l.label].push_back(l);
  for (result_row& row : rows) {
    trace_cell cell;
    const auto found = by_label.find(trace::trace_point_label(row.variant_name, row.config.size,
                                                              row.config.block, row.config.param));
    if (found == by_label.end()) {
      cell.reason = missing;
    } else {
      cell.launches = found->second;
      cell.available = true;
      for (const auto& l : cell.launches) {
        if (!l.error.empty()) {
          cell.available = false;
          cell.reason = l.error;
          break;
        }
        if (l.dropped > 0) {
          cell.available = false;
          cell.reason = std::to_string(l.dropped) + " accesses found the tracer's table full";
          break;
        }
      }
      if (cell.available) cell.counts = trace::traced_counts(cell.launches);
    }
    row.trace = std::move(cell);
  }
}

void counters_from_trace(result_row& row) {
  if (!row.trace || !row.trace->available) return;
  const auto values = row.trace->counts.by_metric();
  counter_cell c;
  c.available = true;
  c.from_trace = true;
  c.reason = "from the trace";
  for (const auto& name : traced_metrics())
    if (const metric_info* m = find_metric(name)) c.totals[m->key()] = values.at(name);
  row.counters = std::move(c);
}

std::vector<std::string> traced_run_arguments(const run_request& request,
                                              const std::string& output) {
  std::vector<std::string> a = {"run", request.which->id};
  std::vector<std::string> names;
  if (request.variants.empty()) {
    for (const auto& v : request.which->variants)
      if (v.role != variant_role::exercise && v.role != variant_role::baseline)
        names.push_back(v.name);
  } else {
    for (const variant* v : request.variants)
      if (v->role != variant_role::baseline) names.push_back(v->name);
  }
  a.push_back("--variant");
  a.push_back(join(names, ","));
  const auto numbers = [](const auto& list) {
    std::vector<std::string> out;
    for (const auto& n : list) out.push_back(std::to_string(n));
    return join(out, ",");
  };
  if (!request.sizes.empty()) {
    a.push_back("--size");
    a.push_back(numbers(request.sizes));
  }
  if (!request.blocks.empty()) {
    a.push_back("--block");
    a.push_back(numbers(request.blocks));
  }
  if (request.sweep.full) {
    a.push_back("--sweep");
    a.push_back("full");
  } else if (!request.sweep.values.empty()) {
    std::vector<std::string> groups;
    for (const auto& [name, values] : request.sweep.values)
      groups.push_back((name.empty() ? "" : name + "=") + numbers(values));
    a.push_back("--sweep");
    a.push_back(join(groups, ","));
  }
  add_child_run_arguments(a, request, output);
  return a;
}

std::vector<std::string> point_run_arguments(const run_request& request, const result_row& row,
                                             const std::string& output) {
  std::vector<std::string> a = {"run",       request.which->id,
                                "--variant", row.variant_name,
                                "--size",    std::to_string(row.config.size)};
  // The block as the user gave it: without --block each variant takes its own default, as here.
  if (!request.blocks.empty()) {
    a.push_back("--block");
    a.push_back(std::to_string(row.config.block));
  }
  if (row.sweep_name) {
    a.push_back("--sweep");
    a.push_back(*row.sweep_name + "=" + std::to_string(row.config.param));
  }
  add_child_run_arguments(a, request, output);
  return a;
}

trace_workspace::trace_workspace() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/cudalab-trace-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    throw error("cannot make a folder for the trace (" + pattern + "): " + std::strerror(errno),
                "set TMPDIR to a writable folder");
  m_dir = buffer.data();
}

trace_workspace::~trace_workspace() {
  if (const char* keep = std::getenv("CUDALAB_TRACE_KEEP"); keep && std::string(keep) == "1") {
    std::cerr << "cudalab: trace files kept in " << m_dir << "\n";
    return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(m_dir, ignored);
}

int trace_deadline_seconds(const std::vector<std::string>& arguments) {
  if (const char* text = std::getenv("CUDALAB_TRACE_TIMEOUT_S"); text && *text) {
    char* end = nullptr;
    errno = 0;
    const long seconds = std::strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || seconds <= 0 || seconds > 86400)
      throw usage_error(std::string("CUDALAB_TRACE_TIMEOUT_S must be a whole number of seconds "
                                    "from 1 to 86400, not '") +
                        text + "'");
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
