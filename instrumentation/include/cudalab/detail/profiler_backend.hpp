// The seam between counter_session and CUPTI.
//
// counter_session owns the order of calls and turns failures into a counter_status; the
// backend only performs one CUPTI (or driver) step per method. The real backend wraps the
// Range Profiler; tests substitute a fake that fails at a chosen step, so every failure path
// (no device, unsupported chip, no permission at any call, an attached profiler, dropped
// ranges) is exercised without a GPU.
//
// A failed CUPTI call throws detail::cupti_error carrying the call and the CUptiResult code.
#pragma once

#include "cudalab/check.hpp"
#include "cudalab/counters.hpp"

#include <cupti_result.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cudalab {

namespace detail {

// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" (cuptiGetResultString), or "CUptiResult 123".
std::string cupti_result_name(CUptiResult code);

class cupti_error : public error {
 public:
  cupti_error(CUptiResult code, std::string call, std::string hint = {});
  CUptiResult code() const noexcept { return m_code; }
  const std::string& call() const noexcept { return m_call; }

 private:
  CUptiResult m_code;
  std::string m_call;
};

}  // namespace detail

// CUpti_Profiler_DeviceSupported_Params, as CUpti_Profiler_Support_Level values
// (0 unknown, 1 unsupported, 2 disabled, 3 supported).
struct device_support {
  int overall = 3;
  int architecture = 3;
  int sli = 3;
  int vgpu = 3;
  int confidential_compute = 3;
  int cmp = 3;
  int wsl = 3;
};

class profiler_backend {
 public:
  virtual ~profiler_backend() = default;

  // cudaGetDeviceCount (cuInit underneath): the number of devices, 0 with the reason in `why`.
  virtual int device_count(std::string& why) = 0;
  virtual void compute_capability(int device, int& major, int& minor) = 0;
  // cuptiProfilerInitialize.
  virtual void initialize() = 0;
  // cuptiProfilerDeviceSupported for the Range Profiler.
  virtual device_support device_supported(int device) = 0;
  // cuptiDeviceGetChipName ("GH100").
  virtual std::string chip_name(int device) = 0;
  // Makes the device's primary context current and reads its counter availability image
  // (cuptiProfilerGetCounterAvailability, size then data).
  virtual std::vector<std::uint8_t> counter_availability(int device) = 0;
  // Host side: the configuration image for `metrics`; returns the number of passes. Keeps the
  // host object for evaluate(). A name CUPTI does not know fails in ConfigAddMetrics.
  virtual std::size_t configure(const std::string& chip,
                                const std::vector<std::uint8_t>& availability,
                                const std::vector<std::string>& metrics) = 0;
  // cuptiRangeProfilerEnable on the current (primary) context.
  virtual void enable() = 0;
  // Counter data for `max_ranges` ranges and cuptiRangeProfilerSetConfig (auto range, one
  // nesting level, the given replay mode).
  virtual void set_config(std::size_t max_ranges, counter_replay replay) = 0;
  // cuptiRangeProfilerCounterDataImageInitialize on the counter data set_config gave CUPTI:
  // empties it for the next collect without setting the configuration again.
  virtual void reset_counter_data() = 0;
  virtual void start() = 0;
  // Synchronizes the context, stops the pass; true when every pass has been submitted.
  virtual bool stop() = 0;
  // cuptiRangeProfilerDecodeData: the number of ranges dropped.
  virtual std::size_t decode() = 0;
  virtual std::size_t range_count() = 0;
  virtual std::string range_name(std::size_t range) = 0;
  // One value per metric given to configure(), in that order.
  virtual std::vector<double> evaluate(std::size_t range) = 0;
  // cuptiRangeProfilerDisable; a no-op when not enabled.
  virtual void disable() = 0;
};

// The CUPTI Range Profiler implementation.
std::unique_ptr<profiler_backend> make_cupti_backend();

}  // namespace cudalab
