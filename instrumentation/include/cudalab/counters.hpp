// In-process hardware counters through the CUPTI Range Profiler (CUDA 13).
//
// counter_session is RAII and move-only: it owns the profiler object of one context and one
// metric configuration. collect() runs a callable that launches kernels; every kernel becomes
// one range (auto range, kernel replay: CUPTI saves and restores memory between passes, so
// multi-pass metric sets work on kernels that modify their inputs).
//
// When counters cannot be read (no device, unsupported chip, no permission, another profiler
// attached), the constructor throws counters_unavailable carrying a counter_availability: the
// caller prints `n/a (reason)` and carries on with timings and predictions.
#pragma once

#include "cudalab/check.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cudalab {

enum class counter_status {
  available,
  no_device,
  unsupported_chip,
  no_permission,
  profiler_attached,
  error
};
std::string_view to_string(counter_status s);

struct counter_availability {
  counter_status status = counter_status::error;
  std::string reason;  // one line: "GPU performance counters are restricted to admin users ..."
  std::string fix;     // what to do about it
  bool ok() const { return status == counter_status::available; }
};

class counters_unavailable : public error {
 public:
  explicit counters_unavailable(counter_availability why);
  const counter_availability& availability() const noexcept { return m_why; }

 private:
  counter_availability m_why;
};

struct kernel_counters {
  std::string range_name;                // as CUPTI named it
  std::map<std::string, double> values;  // CUPTI metric name -> value
};

struct counter_result {
  std::vector<kernel_counters> kernels;  // one per kernel launch, in launch order
  // Per variant: `.sum` metrics add up over kernels; other metrics are the value of a single
  // kernel, or the mean over kernels (documented in docs/metrics.md).
  std::map<std::string, double> totals;
};

// The seam between the session and CUPTI, so failure paths are testable without a GPU.
class profiler_backend;

class counter_session {
 public:
  // The most kernel launches one collect() measures; more are reported as dropped ranges.
  static constexpr std::size_t max_kernels_per_collect = 64;

  // Checks whether counters can be read on `device` without starting a session: CUPTI is
  // initialized, asked, and deinitialized again, so a session can follow in this process.
  static counter_availability probe(int device);
  // The same through another backend (tests: a fake that fails at a chosen call).
  static counter_availability probe(std::unique_ptr<profiler_backend> backend, int device);

  // Throws counters_unavailable or cudalab::error (unknown metric names for this chip).
  // Makes `device` current: collect() profiles the kernels launched on it.
  counter_session(int device, std::vector<std::string> cupti_metrics);
  // For tests: a session over a fake backend, on device 0.
  counter_session(std::unique_ptr<profiler_backend> backend, std::vector<std::string> metrics);
  ~counter_session();
  counter_session(const counter_session&) = delete;  // owns the CUPTI profiler object
  counter_session& operator=(const counter_session&) = delete;
  counter_session(counter_session&&) noexcept;
  counter_session& operator=(counter_session&&) noexcept;

  // Runs `launches` as often as CUPTI needs (once under kernel replay) and returns the
  // counters of each kernel. Throws cudalab::error when no kernel ran or ranges were dropped,
  // counters_unavailable when CUPTI refuses (permission, another profiler).
  counter_result collect(const std::function<void()>& launches);
  int passes() const;
  const std::vector<std::string>& metrics() const;

 private:
  counter_session(std::unique_ptr<profiler_backend> backend, std::vector<std::string> metrics,
                  int device);
  struct impl;
  std::unique_ptr<impl> m_impl;
};

}  // namespace cudalab
