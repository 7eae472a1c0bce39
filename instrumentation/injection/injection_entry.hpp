// What an injection library (the memory tracer, the SASS lines) does when the driver and the
// runner call it. injection_entry.cpp, compiled into each library, defines the entry points
// themselves: InitializeInjection, which the CUDA driver calls once it has loaded the library
// through CUDA_INJECTION64_PATH, and the runner's marks (cudalab/trace/trace_marks.hpp), found
// with dlsym under the tracer's names. Each library defines the three hooks below.
#pragma once

#include <string>

namespace cudalab::injection {

// Once, from the first InitializeInjection.
void start();
// The launches between these two marks are the ones the library measures.
void begin_point(const char* label);
void end_point();

// Appends `line` to the file at `path` (the launches both libraries write, one a line): what it
// failed at, if anything.
enum class append_result { ok, cannot_open, cannot_write };
append_result append_line(const std::string& path, const std::string& line);

// The library's one state object, never destroyed: the driver's callbacks may outlive exit.
template <class State>
State& lasting_instance() {
  static State* instance = new State();
  return *instance;
}

}  // namespace cudalab::injection
