#include "phase_trace.hpp"

#include <cstdlib>

namespace cudalab::detail {

phase_trace::phase_trace() {
  const char* value = std::getenv("CUDALAB_COUNTER_TRACE");
  m_enabled = value != nullptr && std::string(value) == "1";  // checked by the tool at start
}

void phase_trace::add(const char* phase, double ms) {
  total& t = m_totals[phase];
  ++t.calls;
  t.ms += ms;
}

void phase_trace::print(std::FILE* out) const {
  if (!m_enabled || m_totals.empty()) return;
  double all = 0;
  for (const auto& [name, t] : m_totals) all += t.ms;
  std::fprintf(out, "cudalab: counter session wall time by Range Profiler step (%.1f ms in all)\n",
               all);
  for (const auto& [name, t] : m_totals)
    std::fprintf(out, "  %-14s %6ld calls %10.1f ms %9.3f ms/call\n", name.c_str(), t.calls, t.ms,
                 t.ms / static_cast<double>(t.calls));
}

}  // namespace cudalab::detail
