// A kernel's name as the kit prints it: what a learner finds in the source or a profiler.
#pragma once

#include <string>

namespace cudalab {

// The demangled name of a kernel (the name itself when it is not mangled), without its return
// type or parameters, an anonymous namespace written {anonymous}:
// "cudalab::matmul::{anonymous}::tiled_kernel<8>".
std::string kernel_display_name(const std::string& mangled);
// The same for a name CUPTI may leave null: "(unnamed kernel)".
std::string kernel_display_name(const char* mangled);

}  // namespace cudalab
