// Writing --output atomically: the text goes to a temporary file beside the target, which is
// renamed over it only when complete, so a failed run never leaves half a CSV behind.
#pragma once

#include <string>

namespace cudalab::tool {

class atomic_output {
 public:
  // Checks at once that `path` can be written (usage_error otherwise), before any work runs.
  explicit atomic_output(std::string path);
  ~atomic_output();  // removes the temporary file if commit() never ran
  atomic_output(const atomic_output&) = delete;  // owns the temporary file
  atomic_output& operator=(const atomic_output&) = delete;
  void commit(const std::string& text);
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
  std::string m_temp;
  bool m_committed = false;
};

}  // namespace cudalab::tool
