#include "progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace cudalab::tool {
namespace {

bool someone_watches() {
  const char* ci = std::getenv("CI");
  return ::isatty(STDERR_FILENO) == 1 && (ci == nullptr || *ci == '\0');
}

std::chrono::milliseconds delay_before_showing() {
  const char* text = std::getenv("CUDALAB_PROGRESS_AFTER_MS");
  if (text == nullptr || *text == '\0') return std::chrono::seconds(1);
  char* end = nullptr;
  const long ms = std::strtol(text, &end, 10);
  if (*end != '\0' || ms < 0) return std::chrono::seconds(1);
  // At most an hour: a larger value would overflow the clock's nanoseconds when compared.
  return std::chrono::milliseconds(std::min(ms, 3'600'000L));
}

}  // namespace

progress_line::progress_line() : m_enabled(someone_watches()), m_delay(delay_before_showing()) {}

progress_line::~progress_line() { clear(); }

void progress_line::show(const std::string& what) {
  if (!m_enabled) return;
  const auto now = clock::now();
  if (now - m_start < m_delay) return;
  // At most ten redraws a second: a sweep of hundreds of points must not flood the terminal.
  if (m_visible && now - m_last_draw < std::chrono::milliseconds(100)) return;
  m_last_draw = now;
  const std::string line = what.size() > 100 ? what.substr(0, 97) + "..." : what;
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  m_visible = true;
}

void progress_line::clear() {
  if (!m_visible) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  m_visible = false;
}

}  // namespace cudalab::tool
