// The base of every error the kit reports to the user as one line, with an optional hint
// (check.hpp adds the CUDA errors, usage errors and a missing device).
#pragma once

#include <stdexcept>
#include <string>

namespace cudalab {

// Base of every error the kit reports to the user as one line.
class error : public std::runtime_error {
 public:
  explicit error(const std::string& what, std::string hint = {})
      : std::runtime_error(what), m_hint(std::move(hint)) {}
  const std::string& hint() const noexcept { return m_hint; }

 private:
  std::string m_hint;
};

}  // namespace cudalab
