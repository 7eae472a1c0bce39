#include "cudalab/trace/tracer_support.hpp"

#include "cudalab/user_text.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

// Set by the build (instrumentation/tracer/CMakeLists.txt) when it made the tracer.
#ifndef CUDALAB_TRACER_LIBRARY
#define CUDALAB_TRACER_LIBRARY ""
#endif
#ifndef CUDALAB_TRACER_PATCHES
#define CUDALAB_TRACER_PATCHES ""
#endif
#ifndef CUDALAB_TRACER_SANITIZER_DIR
#define CUDALAB_TRACER_SANITIZER_DIR ""
#endif
#ifndef CUDALAB_SASS_LINES_LIBRARY
#define CUDALAB_SASS_LINES_LIBRARY ""
#endif
#ifndef CUDALAB_NVDISASM
#define CUDALAB_NVDISASM ""
#endif

namespace cudalab::trace {
namespace {

bool readable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), R_OK) == 0;
}
bool executable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string on_path(const std::string& name) {
  std::istringstream dirs(env("PATH"));
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (executable((dir.empty() ? "." : dir) + "/" + name))
      return (dir.empty() ? "." : dir) + "/" + name;
  return {};
}

const char* const build_fix =
    "install the Compute Sanitizer API (scripts/setup.sh puts NVIDIA's nvidia-cuda-sanitizer-api "
    "wheel in .tools/sanitizer; the CUDA Toolkit has it in compute-sanitizer/) and rebuild "
    "(docs/building.md)";

}  // namespace

tracer_install tracer_install_here() {
  tracer_install i;
  if (readable(CUDALAB_TRACER_LIBRARY)) i.library = CUDALAB_TRACER_LIBRARY;
  if (readable(CUDALAB_TRACER_PATCHES)) i.patches = CUDALAB_TRACER_PATCHES;
  for (const std::string& dir : {std::string("/usr/local/cuda/compute-sanitizer"),
                                 std::string(CUDALAB_TRACER_SANITIZER_DIR)})
    if (readable(dir + "/libsanitizer-public.so")) {
      i.sanitizer_dir = dir;
      break;
    }
  if (readable(CUDALAB_SASS_LINES_LIBRARY)) i.sass_lines_library = CUDALAB_SASS_LINES_LIBRARY;
  if (readable(CUDALAB_KERNEL_TIMES_LIBRARY)) i.kernel_times_library = CUDALAB_KERNEL_TIMES_LIBRARY;
  if (readable(CUDALAB_LAUNCH_COUNTERS_LIBRARY))
    i.launch_counters_library = CUDALAB_LAUNCH_COUNTERS_LIBRARY;
  i.nvdisasm = on_path("nvdisasm");
  if (i.nvdisasm.empty() && executable("/usr/local/cuda/bin/nvdisasm"))
    i.nvdisasm = "/usr/local/cuda/bin/nvdisasm";
  if (i.nvdisasm.empty() && executable(CUDALAB_NVDISASM)) i.nvdisasm = CUDALAB_NVDISASM;
  return i;
}

tracer_environment_view tracer_environment_here() {
  return {env("CUDA_INJECTION64_PATH"), env("LD_PRELOAD"), env("CUDALAB_TRACE_OUTPUT")};
}

tracer_availability check_tracer(const tracer_install& install, const tracer_environment_view& e) {
  tracer_availability a;
  const bool sanitizer_here = e.cuda_injection.find("sanitizer") != std::string::npos ||
                              e.ld_preload.find("TreeLauncher") != std::string::npos ||
                              e.ld_preload.find("sanitizer") != std::string::npos;
  if (sanitizer_here) {
    const std::string tool = e.cuda_injection.empty() ? e.ld_preload : e.cuda_injection;
    a.reason = "--trace cannot run under compute-sanitizer (it injects its own tool, " +
               shown(tool.substr(tool.rfind('/') + 1), 40) + ")";
    a.fix = "run cudalab run --trace outside compute-sanitizer";
    return a;
  }
  if (!e.trace_output.empty()) {
    a.reason = "this process is already traced (CUDALAB_TRACE_OUTPUT is set)";
    a.fix = "unset CUDALAB_TRACE_OUTPUT";
    return a;
  }
  if (!e.cuda_injection.empty()) {
    a.reason = "another CUDA tool is injected (CUDA_INJECTION64_PATH=" + e.cuda_injection + ")";
    a.fix = "unset CUDA_INJECTION64_PATH, or run without the other tool";
    return a;
  }
  if (install.library.empty() || install.patches.empty()) {
    a.reason = "this build has no memory tracer (the Compute Sanitizer API was not found)";
    a.fix = build_fix;
    return a;
  }
  if (install.sanitizer_dir.empty()) {
    a.reason =
        "libsanitizer-public.so is in neither /usr/local/cuda/compute-sanitizer nor the "
        "folder the build used";
    a.fix = build_fix;
    return a;
  }
  a.ok = true;
  a.reason = "Compute Sanitizer API in " + install.sanitizer_dir;
  return a;
}

tracer_availability tracer_available() {
  return check_tracer(tracer_install_here(), tracer_environment_here());
}

std::vector<std::pair<std::string, std::string>> sass_lines_child_environment(
    const tracer_install& install, const std::string& output, const std::string& cubin_dir,
    const std::string& point, std::size_t function) {
  return {{"CUDA_INJECTION64_PATH", install.sass_lines_library},
          {"CUDALAB_TRACE_OUTPUT", output},
          {"CUDALAB_TRACE_CUBINS", cubin_dir},
          {"CUDALAB_SASS_POINT", point},
          {"CUDALAB_SASS_FUNCTION", std::to_string(function)}};
}

std::vector<std::pair<std::string, std::string>> timed_child_environment(
    const tracer_install& install, const std::string& output) {
  return {{"CUDA_INJECTION64_PATH", install.kernel_times_library},
          {"NVTX_INJECTION64_PATH", install.kernel_times_library},
          {"CUDALAB_TRACE_OUTPUT", output}};
}

std::vector<std::pair<std::string, std::string>> launch_counters_child_environment(
    const tracer_install& install, const std::string& output) {
  return {{"CUDA_INJECTION64_PATH", install.launch_counters_library},
          {"NVTX_INJECTION64_PATH", install.launch_counters_library},
          {"CUDALAB_TRACE_OUTPUT", output}};
}

bool injects_the_tracer(const std::string& variable_name) {
  return variable_name == "CUDA_INJECTION64_PATH" || variable_name == "CUDALAB_TRACE_PATCHES" ||
         variable_name == "CUDALAB_TRACE_OUTPUT" || variable_name == "CUDALAB_TRACE_CUBINS" ||
         variable_name == "CUDALAB_SASS_POINT" || variable_name == "CUDALAB_SASS_FUNCTION";
}

std::vector<std::pair<std::string, std::string>> traced_child_environment(
    const tracer_install& install, const std::string& output, const std::string& cubin_dir) {
  const std::string ld = env("LD_LIBRARY_PATH");
  return {{"CUDA_INJECTION64_PATH", install.library},
          {"CUDALAB_TRACE_PATCHES", install.patches},
          {"CUDALAB_TRACE_OUTPUT", output},
          {"CUDALAB_TRACE_CUBINS", cubin_dir},
          {"LD_LIBRARY_PATH", install.sanitizer_dir + (ld.empty() ? "" : ":" + ld)}};
}

}  // namespace cudalab::trace
