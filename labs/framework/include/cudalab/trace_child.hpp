// Running the program again in a second process with an injection library (the memory tracer,
// or the hardware's per-line counters): its temporary folder, its deadline, and its end.
#pragma once

#include "cudalab/scratch_folder.hpp"
#include "cudalab/trace/tracer_support.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cudalab {

// A traced run's files: a temporary folder, removed on destruction unless CUDALAB_TRACE_KEEP is
// set (then its path is printed to stderr, for scripts/trace-selftest.sh).
class trace_workspace {
 public:
  trace_workspace();
  ~trace_workspace();
  const std::string& dir() const noexcept { return m_folder.path(); }
  std::string trace_file() const { return dir() + "/trace.jsonl"; }
  std::string log_file() const { return dir() + "/child.log"; }

 private:
  scratch_folder m_folder{"trace"};
};

// How long a traced child may run before it is killed: CUDALAB_TRACE_TIMEOUT_S when set (bad
// values: usage_error), else 120 s for every 8 points (variants x sizes) `arguments` ask for.
int trace_deadline_seconds(const std::vector<std::string>& arguments);

// Runs `executable arguments...` with the tracer injected, its output in the workspace's log.
// Throws cudalab::error with the end of the log when it fails, or when it ran past
// trace_deadline_seconds (then its process group is killed).
void run_traced_child(const std::string& executable, const std::vector<std::string>& arguments,
                      const trace::tracer_install& install, const trace_workspace& workspace);

// The same with any injection library: `injection` is added to the child's environment.
void run_injected_child(const std::string& executable, const std::vector<std::string>& arguments,
                        const std::vector<std::pair<std::string, std::string>>& injection,
                        const trace_workspace& workspace);

// run_traced_child with the child's output on this process's stdout and stderr; returns its exit
// code (cudalab check's fallback runs itself again, traced, and passes its verdict on).
int run_traced_child_shown(const std::string& executable, const std::vector<std::string>& arguments,
                           const trace::tracer_install& install, const trace_workspace& workspace);

}  // namespace cudalab
