// The environment variables the tool reads, checked like options: a value the tool would
// misread is bad input (one line, exit 2) before any command does work. docs/environment.md
// lists them.
#pragma once

namespace cudalab::tool {

// Throws usage_error naming the first variable whose value the tool does not accept.
void check_environment();

}  // namespace cudalab::tool
