// The entry points every injection library exports (injection_entry.hpp); the rest of each
// library is hidden.
#include "injection_entry.hpp"

#include <cstdio>
#include <mutex>

namespace cudalab::injection {

append_result append_line(const std::string& path, const std::string& line) {
  FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return append_result::cannot_open;
  const bool written = std::fwrite(line.data(), 1, line.size(), f) == line.size();
  const bool closed = std::fclose(f) == 0;
  return written && closed ? append_result::ok : append_result::cannot_write;
}

}  // namespace cudalab::injection

namespace {
std::once_flag started;
}  // namespace

extern "C" {

// Called by the CUDA driver when it loads this library through CUDA_INJECTION64_PATH.
__attribute__((visibility("default"))) int InitializeInjection() {
  std::call_once(started, [] { cudalab::injection::start(); });
  return 1;
}

// The runner's marks (cudalab/trace/trace_marks.hpp).
__attribute__((visibility("default"))) void cudalab_tracer_begin_point(const char* label) {
  cudalab::injection::begin_point(label);
}
__attribute__((visibility("default"))) void cudalab_tracer_end_point() {
  cudalab::injection::end_point();
}

}  // extern "C"
