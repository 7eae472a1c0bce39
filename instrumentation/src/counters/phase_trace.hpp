// Where a counter session spends its wall time, for `CUDALAB_COUNTER_TRACE=1 cudalab run ...`.
//
// In-process counters are only worth having if they are cheap next to an external profiler
// (docs/benchmarks.md). This trace splits a session's wall time by Range Profiler step, so a
// regression in collection cost shows which step it is in. Off unless the variable is set:
// then each step costs one steady_clock read on either side.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

namespace cudalab::detail {

class phase_trace {
 public:
  // Reads CUDALAB_COUNTER_TRACE once.
  phase_trace();
  bool enabled() const noexcept { return m_enabled; }
  void add(const char* phase, double ms);
  // One line per phase (calls, total ms, ms per call) to `out`, when enabled and non-empty.
  void print(std::FILE* out) const;

 private:
  struct total {
    long calls = 0;
    double ms = 0;
  };
  bool m_enabled = false;
  std::map<std::string, total> m_totals;
};

// Adds the wall time between construction and destruction to one phase of the trace.
class timed_phase {
 public:
  timed_phase(phase_trace& trace, const char* phase)
      : m_trace(trace.enabled() ? &trace : nullptr), m_phase(phase) {
    if (m_trace) m_start = std::chrono::steady_clock::now();
  }
  ~timed_phase() {
    if (m_trace)
      m_trace->add(m_phase, std::chrono::duration<double, std::milli>(
                                std::chrono::steady_clock::now() - m_start)
                                .count());
  }
  timed_phase(const timed_phase&) = delete;  // one measurement per scope
  timed_phase& operator=(const timed_phase&) = delete;

 private:
  phase_trace* m_trace;
  const char* m_phase;
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace cudalab::detail
