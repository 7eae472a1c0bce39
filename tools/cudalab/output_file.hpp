// The one owner of --output files: checked before any work runs, written whole or not at all.
//
// A run can take minutes on a GPU, so the destination is checked first (a directory, a missing
// or unwritable parent, a read-only file, a name too long for the temporary suffix: one line,
// exit 2, before anything runs). The report itself is written at the end:
//   - to a regular file (or a link to one) through a temporary file created beside the target
//     with mkstemp (exclusive, never following a planted link), fsynced, given the target's
//     mode and renamed over it, so readers see the old file or the whole new one;
//   - to a path that names one of the process's open descriptors (/dev/stdout, /dev/stderr,
//     /dev/fd/N, /proc/self/fd/N) through that descriptor, in place, as a shell redirect would:
//     `--output /dev/stdout >> log` appends to log and keeps what it held, and a pipe works;
//   - to anything else (/dev/null, a FIFO) directly, since renaming a regular file over a
//     device or a pipe would replace it.
// A signal that would end the program while the temporary file exists (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, ...) removes it first; a signal the caller ignores
// (nohup, `trap '' HUP`) stays ignored. An existing file keeps its mode, and its owner where
// the rename would change it (root writing a user's file); a file with several hard links is
// rewritten in place, since a rename would part it from its other names.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace cudalab::tool {

// The descriptor a path names: 1 for /dev/stdout, 2 for /dev/stderr, N for /dev/fd/N and
// /proc/self/fd/N; -1 for any other path.
int named_descriptor(const std::string& path);

class output_file {
 public:
  // Checks at once that `path` can be written (usage_error otherwise). Creates nothing.
  explicit output_file(std::string path);
  output_file(const output_file&) = delete;  // one owner for the destination
  output_file& operator=(const output_file&) = delete;
  // Writes what `write` puts in the stream as described above, as it goes (a long report is
  // never held whole); throws cudalab::error naming the failed step.
  void commit(const std::function<void(std::ostream&)>& write);
  void commit(std::string_view text);
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;     // as the learner typed it (for messages)
  std::string m_target;   // what is written: the path with links resolved
  bool m_regular = true;  // false: a device, FIFO or socket, written directly
  int m_descriptor = -1;  // >= 0: the path names this open descriptor, written through it
};

}  // namespace cudalab::tool
