// What the GPU did while a piece of host code ran: every kernel (by name, and who launched it)
// and every copy and memset, recorded by CUPTI's activity and callback APIs. The grader takes
// this inventory of one launch of the exercise: work done by a library's kernels, the copy
// engine or the host (through copies) is not the exercise's, and the counters would either
// credit it to the exercise or not see it at all.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cudalab {

struct launched_kernel {
  std::string name;  // as kernel_display_name prints it: "cudalab::labs::tiled_kernel<32>"
  // The file of the code that launched it ("cudalab", "libcublasLt.so.13"), for a graph's
  // kernels the code that launched the graph, or how it was launched when no host code of
  // this process asked for it.
  std::string launched_by;
  // Launched by this program's own code (not a library it links) and not a library's
  // template (CUB, Thrust, CUTLASS) instantiated in it.
  bool own = false;
};

struct data_movement {
  std::string what;  // "copy device to device", "copy host to device", "memset"
  std::size_t bytes = 0;
};

struct gpu_activity {
  bool available = false;
  std::string reason;  // why not, when not available
  std::vector<launched_kernel> kernels;
  std::vector<data_movement> copies;  // copies and memsets, in the order they ran
};

// The library namespaces whose kernels are never a learner's own, even when their templates
// are instantiated in the learner's file, at the start of the name or inside another namespace
// ("cub::", "mine::cub::", "thrust::", "cutlass::", "cute::", "cuda::").
// `demangled` as kernel_display_name gives it.
bool is_library_kernel_name(const std::string& demangled);

// Records every kernel, copy and memset from construction until finish(). One at a time in a
// process; another CUPTI subscriber (nsys, ncu, an NVTX recorder) makes it unavailable, and
// finish() then says so. Never throws from its constructor: an inventory that cannot be taken
// is reported, not fatal.
class gpu_activity_recorder {
 public:
  gpu_activity_recorder();
  ~gpu_activity_recorder();
  gpu_activity_recorder(const gpu_activity_recorder&) = delete;
  gpu_activity_recorder& operator=(const gpu_activity_recorder&) = delete;

  // Waits for the device, flushes CUPTI's buffers and returns what ran since construction.
  // Call once.
  gpu_activity finish();

  struct state;

 private:
  std::unique_ptr<state> m_state;
};

}  // namespace cudalab
