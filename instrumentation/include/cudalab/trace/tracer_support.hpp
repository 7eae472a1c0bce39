// Whether `cudalab run --trace` can trace here, and the environment a traced process needs.
//
// The tracer is an injection library built on NVIDIA's Compute Sanitizer API
// (instrumentation/tracer/); the build makes it only where the API's headers and
// libsanitizer-public.so were found (docs/building.md). At run time the Sanitizer library of the
// machine's toolkit (/usr/local/cuda/compute-sanitizer) is preferred, else the one the build
// used. Two tools cannot inject into one process: under compute-sanitizer (or any tool that set
// CUDA_INJECTION64_PATH) the tracer refuses.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace cudalab::trace {

// What the build and the machine hold; tracer_install_here() fills it, tests make their own.
struct tracer_install {
  std::string library;        // libcudalab_tracer.so; empty: not built
  std::string patches;        // the patch fatbin beside it
  std::string sanitizer_dir;  // the folder of libsanitizer-public.so used at run time; empty: none
  std::string nvdisasm;       // for --lines; empty: none found
  // libcudalab_sass_lines.so: the hardware's per-instruction counts for --lines (on CUPTI's
  // SASS Metrics API, instrumentation/sass_lines/); empty: not found.
  std::string sass_lines_library;
  // libcudalab_kernel_times.so: each launch's GPU time for `cudalab profile`, on CUPTI's
  // activity API (instrumentation/kernel_times/); empty: not found.
  std::string kernel_times_library;
  // libcudalab_launch_counters.so: each launch's DRAM bytes and local traffic for `cudalab
  // profile`, on CUPTI's Range Profiler (instrumentation/launch_counters/); empty: not found.
  std::string launch_counters_library;
};

// The variables of this process that decide whether another tool is attached.
struct tracer_environment_view {
  std::string cuda_injection;  // CUDA_INJECTION64_PATH
  std::string ld_preload;      // LD_PRELOAD
  std::string trace_output;    // CUDALAB_TRACE_OUTPUT: this process is itself traced
};

struct tracer_availability {
  bool ok = false;
  std::string reason;  // one line: why not
  std::string fix;     // one line: what to do
};

tracer_install tracer_install_here();
tracer_environment_view tracer_environment_here();

// Pure: the verdict for an install in an environment (the CPU tests' subject).
tracer_availability check_tracer(const tracer_install& install, const tracer_environment_view& env);
// check_tracer(tracer_install_here(), tracer_environment_here()).
tracer_availability tracer_available();

// The variables to add to a child's environment so that it runs traced, writing to `output` and
// saving module code in `cubin_dir`.
std::vector<std::pair<std::string, std::string>> traced_child_environment(
    const tracer_install& install, const std::string& output, const std::string& cubin_dir);

// The variables that make a child measure, with the hardware's SASS-level counters, function
// number `function` (in the order of first launch) of the point labelled `point`, writing to
// `output` and saving module code in `cubin_dir` (instrumentation/sass_lines/).
std::vector<std::pair<std::string, std::string>> sass_lines_child_environment(
    const tracer_install& install, const std::string& output, const std::string& cubin_dir,
    const std::string& point, std::size_t function);

// The variables that make a child write each launch's GPU time and NVTX ranges to `output`
// (instrumentation/kernel_times/), NVTX_INJECTION64_PATH among them.
std::vector<std::pair<std::string, std::string>> timed_child_environment(
    const tracer_install& install, const std::string& output);
// The same for each launch's Range Profiler counts (instrumentation/launch_counters/).
std::vector<std::pair<std::string, std::string>> launch_counters_child_environment(
    const tracer_install& install, const std::string& output);

// Whether a variable of traced_child_environment injects or drives the tracer (all of them but
// LD_LIBRARY_PATH, which only adds a folder): a child that must not run traced (compute-sanitizer
// injects itself, and stops when another tool is injected) is started without these.
bool injects_the_tracer(const std::string& variable_name);

}  // namespace cudalab::trace
