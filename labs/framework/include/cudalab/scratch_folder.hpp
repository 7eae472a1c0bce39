// A private temporary folder under TMPDIR (else /tmp), removed with what it holds when its owner
// goes: the traced child's files, the report of a run under compute-sanitizer.
#pragma once

#include <string>

namespace cudalab {

class scratch_folder {
 public:
  // "cudalab-<name>-XXXXXX", made by mkdtemp (private to this user, never an existing folder).
  // Throws cudalab::error saying where and why when it cannot be made.
  explicit scratch_folder(const std::string& name);
  ~scratch_folder();
  scratch_folder(const scratch_folder&) = delete;  // one owner removes the folder
  scratch_folder& operator=(const scratch_folder&) = delete;
  const std::string& path() const noexcept { return m_path; }
  // Leaves the folder in place when its owner goes (a run asked to keep its files).
  void keep() noexcept { m_keep = true; }

 private:
  std::string m_path;
  bool m_keep = false;
};

}  // namespace cudalab
