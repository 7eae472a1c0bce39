// Runs the cudalab tool from a test and keeps what it printed.
#pragma once

#include <string>
#include <vector>

namespace cudalab::testing {

struct tool_result {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// `env` entries are NAME=value, added to this process's environment for the child.
tool_result run_tool(const std::vector<std::string>& args,
                     const std::vector<std::string>& env = {});

}  // namespace cudalab::testing
