// One collection of CUPTI's SASS Metrics API on one context: per instruction (pc), the SASS-level
// counts of the memory metrics cudalab run --lines shows (global requests and sectors, shared
// instructions, wavefronts and their ideal).
//
// The API's limit decides how it is used (measured on an H100 and an H200, CUDA 13.0, driver
// 580.159): after cuptiSassMetricsSetConfig only the first kernel function launched records any
// data, and a second SetConfig in the same process fails. So one process measures one function:
// a session is opened just before that function's first launch and read after its point ends.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::sass_lines {

// A CUPTI call that failed, with CUPTI's own words: "cuptiSassMetricsSetConfig failed:
// CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (...)".
struct cupti_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One instruction's counts, by the SASS metric's name without its `smsp__sass_` prefix.
struct sass_pc {
  std::uint32_t cubin_crc = 0;
  std::string function;  // mangled
  std::uint32_t offset = 0;
  std::map<std::string, std::uint64_t> values;
};

// The metrics a session collects, with their `smsp__sass_` prefix.
const std::vector<std::string>& session_metrics();

class sass_metrics_session {
 public:
  // Configures the metrics for `device` and enables collection on `context` (lazy patching:
  // the function is patched at its first launch). Throws cupti_failure.
  sass_metrics_session(CUcontext context, int device);
  ~sass_metrics_session();  // disables and unconfigures; failures are only logged
  sass_metrics_session(const sass_metrics_session&) = delete;  // one Disable, one Unset
  sass_metrics_session& operator=(const sass_metrics_session&) = delete;

  // Every record so far, merged per instruction. Call once the measured kernels have finished.
  // Throws cupti_failure.
  std::vector<sass_pc> flush();

 private:
  CUcontext m_context;
  int m_device;
  bool m_configured = false;
  bool m_enabled = false;
  std::map<std::uint64_t, std::string> m_names;  // metric id -> name without the prefix
};

}  // namespace cudalab::sass_lines
