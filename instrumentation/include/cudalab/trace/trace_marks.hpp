// The runner's side of the tracer: marking the launches of one point so that the injection
// library (instrumentation/tracer/tracer_injection.cpp) traces them under the point's label.
// Outside a traced process (no CUDALAB_TRACE_OUTPUT, or the library is not loaded) every call
// here does nothing.
#pragma once

#include <string>

namespace cudalab::trace {

// True when this process runs under the tracer: CUDALAB_TRACE_OUTPUT is set and the injection
// library named by CUDA_INJECTION64_PATH is loaded and exports the marks.
bool tracing_this_process();

// The file the tracer writes in this process (CUDALAB_TRACE_OUTPUT); empty when none.
std::string trace_output_file();

// Launches made while one is alive are traced under `label`. Move-only; does nothing outside a
// traced process.
class scoped_point {
 public:
  explicit scoped_point(const std::string& label);
  ~scoped_point();
  scoped_point(const scoped_point&) = delete;  // one end mark a begin mark
  scoped_point& operator=(const scoped_point&) = delete;

 private:
  bool m_marked = false;
};

}  // namespace cudalab::trace
