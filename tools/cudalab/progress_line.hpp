// What a long run is doing, on one line of stderr that rewrites itself.
//
// Shown only where a person watches: stderr is a terminal and the CI variable is unset, so
// pipes, files and CI logs stay clean. Nothing appears during the first second (a quick run
// prints no progress at all; CUDALAB_PROGRESS_AFTER_MS sets another delay, which tests use to
// be independent of the machine's speed), and the line is erased before the report prints.
#pragma once

#include <chrono>
#include <string>

namespace cudalab::tool {

class progress_line {
 public:
  progress_line();
  ~progress_line();                              // erases the line
  progress_line(const progress_line&) = delete;  // owns the terminal line
  progress_line& operator=(const progress_line&) = delete;
  void show(const std::string& what);
  void clear();

 private:
  using clock = std::chrono::steady_clock;
  bool m_enabled;
  bool m_visible = false;
  clock::duration m_delay;
  clock::time_point m_start = clock::now();
  clock::time_point m_last_draw{};
};

}  // namespace cudalab::tool
