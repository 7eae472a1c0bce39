// The one way the kit starts another program (the traced or measured `cudalab` child, the
// sanitized child of `cudalab check 07`, nvdisasm for --lines): posix_spawn with an argument
// vector (no shell), no input, its output captured or sent to a descriptor, an environment
// edited from this process's, an optional deadline after which its whole process group is
// killed, and its end reported as an exit code or a signal.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cudalab {

struct child_spec {
  std::vector<std::string> argv;  // argv[0]: the program's path
  // Added to (or replacing in) this process's environment.
  std::vector<std::pair<std::string, std::string>> set_environment;
  // Left out of the child's environment (applied before set_environment).
  std::function<bool(const std::string& name)> drop_environment;
  // Where the child's stdout and stderr go: -1 here and capture false: this process's own.
  int output_fd = -1;
  bool capture_output = false;  // into child_result::output (both streams)
  int deadline_seconds = 0;     // 0: none; else the child's process group is killed after it
};

struct child_result {
  int exit_code = -1;  // -1 when it did not exit
  int signal = 0;      // the signal that ended it, or 0
  bool timed_out = false;
  std::string output;  // with capture_output
  bool exited_with(int code) const { return signal == 0 && !timed_out && exit_code == code; }
  // "exit 3", "signal 11", "killed after 120 s"
  std::string describe() const;
};

// Starts the child, waits for it (or its deadline) and returns how it ended. Throws
// cudalab::error when it cannot be started.
child_result run_child(const child_spec& spec);

// The running program's own path (/proc/self/exe), for starting it again.
std::string this_executable();

}  // namespace cudalab
