#include "cudalab/scratch_folder.hpp"

#include "cudalab/check.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

namespace cudalab {

scratch_folder::scratch_folder(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string pattern =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/cudalab-" + name + "-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    throw error("cannot make a temporary folder (" + pattern + "): " + std::strerror(errno),
                "set TMPDIR to a writable folder");
  m_path = buffer.data();
}

scratch_folder::~scratch_folder() {
  if (m_keep) return;
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

}  // namespace cudalab
