// `cudalab doctor`: is everything in place? GPU, driver and runtime, counter access, and the
// Nsight tools. It diagnoses; it does not fail: missing pieces are listed with their fix.
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"
#include "cudalab/trace/tracer_support.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace cudalab::tool {
namespace {

// The first executable called `name` on PATH, or in `fallback` (a full path); empty if none.
std::string find_program(const std::string& name, const std::string& fallback = {}) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  if (!fallback.empty() && ::access(fallback.c_str(), X_OK) == 0) return fallback;
  return {};
}

void line(const std::string& what, bool ok, const std::string& detail) {
  std::cout << (ok ? "  ok    " : "  --    ") << what
            << std::string(what.size() < 26 ? 26 - what.size() : 1, ' ') << detail << "\n";
}

}  // namespace

int doctor_command(const args& a) {
  po::options_description options("doctor options");
  po::variables_map vm;
  if (!parse_options(a, "cudalab doctor", options, {}, vm)) return exit_ok;

  std::cout << "cudalab " << CUDALAB_VERSION << " doctor\n";
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaGetLastError();
  line("CUDA runtime", true, "version " + format_version(runtime) + " (this build)");
  line("CUDA driver", driver > 0,
       driver > 0 ? "supports CUDA " + format_version(driver)
                  : "no NVIDIA driver found: install the driver for your GPU");
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) {
    line("GPU", false, "no CUDA device: " + why);
  } else {
    for (int i = 0; i < count; ++i) {
      const device_facts f = query_device(i);
      line("GPU " + std::to_string(i), true,
           f.name + ", compute capability " + f.compute_capability() + ", " +
               format_bytes(static_cast<double>(f.global_memory_free)) + " free of " +
               format_bytes(static_cast<double>(f.global_memory_total)));
    }
#if defined(CUDALAB_DEVICE_DEBUG)
    line("build", false,
         "debug build (-G): counters differ from release; use build/release for counts");
#endif
  }
  const counter_availability counters =
      count > 0 ? counter_session::probe(0) : counter_availability{};
  if (count > 0) {
    line("hardware counters", counters.ok(),
         counters.ok()
             ? "CUPTI Range Profiler can read counters on GPU 0"
             : counters.reason + (counters.fix.empty() ? "" : "\n        fix: " + counters.fix));
  } else {
    line("hardware counters", false, "need a GPU; the model's predictions still print");
  }
  // The memory tracer: what stands in for the counters when they are refused (run --trace).
  const trace::tracer_availability tracer = trace::tracer_available();
  line("memory tracer", tracer.ok,
       !tracer.ok  ? tracer.reason + "\n        fix: " + tracer.fix
       : count > 0 ? "cudalab run --trace works here (" + tracer.reason + ")"
                   : "built, with the Compute Sanitizer API; --trace needs a GPU");
  // Which witness `cudalab profile` takes by default on this machine (profile_command.cpp).
  const bool sass_lines = !trace::tracer_install_here().sass_lines_library.empty();
  line(
      "profile", count > 0 && ((counters.ok() && sass_lines) || tracer.ok),
      count == 0 ? "cudalab profile needs a GPU to run a program's kernels"
      : counters.ok() && sass_lines
          ? "cudalab profile measures with SASS-level counters (the tracer if a program ends early)"
      : !tracer.ok ? "cudalab profile needs counters or the memory tracer (above)"
      : counters.ok()
          ? "cudalab profile measures with the memory tracer (no libcudalab_sass_lines.so here)"
          : "cudalab profile measures with the memory tracer (counters refused, above)");
  // What profile's two further runs add: each kernel's time, and its DRAM bytes where counters
  // are permitted.
  const trace::tracer_install install = trace::tracer_install_here();
  const bool timed = !install.kernel_times_library.empty();
  const bool dram = counters.ok() && !install.launch_counters_library.empty();
  line("profile time, DRAM", count > 0 && timed && dram,
       count == 0 ? "need a GPU"
       : !timed   ? "no libcudalab_kernel_times.so here: profile cannot time kernels"
       : dram ? "profile times each kernel (CUPTI activity) and counts its DRAM and local traffic"
       : counters.ok()
           ? "profile times each kernel; no libcudalab_launch_counters.so here: no DRAM bytes"
           : "profile times each kernel; no DRAM bytes (counters refused, above)");
  const std::string nsys_fallback =
      "/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys";
  for (const auto& [tool, purpose] :
       {std::pair<std::string, std::string>{"nsys", "timeline with NVTX ranges (scripts/nsys.sh)"},
        {"ncu", "kernel profiles filtered by NVTX (scripts/ncu.sh)"},
        {"cuda-gdb", "stepping through kernels (scripts/debug.sh)"},
        {"compute-sanitizer", "memcheck, racecheck, synccheck (scripts/sanitize.sh)"}}) {
    const std::string where = find_program(tool, tool == "nsys" ? nsys_fallback : std::string());
    line(tool, !where.empty(),
         where.empty() ? "not found on PATH: needed for " + purpose : where + ": " + purpose);
  }
  return exit_ok;
}

}  // namespace cudalab::tool
