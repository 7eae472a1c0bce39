// A profiler_backend that needs no GPU: it plays a healthy H100 by default, fails with a
// chosen CUptiResult at a chosen step, and records what the session asked of it, so the
// tests see every failure path and check that nothing is left initialized or enabled.
#pragma once

#include "cudalab/detail/profiler_backend.hpp"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cudalab::testing {

struct fake_state {
  // What the fake machine looks like.
  int devices = 1;
  std::string no_device_why = "cudaGetDeviceCount failed: cudaErrorNoDevice";
  int cc_major = 9, cc_minor = 0;
  device_support support;
  std::string chip = "GH100";
  std::map<std::string, CUptiResult> fail_at;  // step -> result
  std::set<std::string> unknown_metrics;       // configure() rejects these
  std::size_t passes = 1;
  int stops_until_all_submitted = 1;
  std::size_t dropped = 0;
  std::vector<std::vector<double>> ranges;  // values per kernel, one per metric

  // What the session did.
  std::vector<std::string> calls;
  int initialized = 0;
  bool enabled = false;
  bool started = false;
  bool destroyed = false;
  std::vector<std::string> configured;
  std::size_t max_ranges = 0;
  counter_replay replay = counter_replay::kernel;
};

class fake_backend final : public profiler_backend {
 public:
  explicit fake_backend(std::shared_ptr<fake_state> state) : m_state(std::move(state)) {}
  ~fake_backend() override {
    m_state->initialized = 0;
    m_state->enabled = false;
    m_state->destroyed = true;
  }

  int device_count(std::string& why) override {
    m_state->calls.push_back("device_count");
    if (m_state->devices == 0) why = m_state->no_device_why;
    return m_state->devices;
  }
  void compute_capability(int, int& major, int& minor) override {
    m_state->calls.push_back("compute_capability");
    major = m_state->cc_major;
    minor = m_state->cc_minor;
  }
  void initialize() override {
    step("initialize", "cuptiProfilerInitialize");
    ++m_state->initialized;
  }
  device_support device_supported(int) override {
    step("device_supported", "cuptiProfilerDeviceSupported");
    return m_state->support;
  }
  std::string chip_name(int) override {
    step("chip_name", "cuptiDeviceGetChipName");
    return m_state->chip;
  }
  std::vector<std::uint8_t> counter_availability(int) override {
    step("counter_availability", "cuptiProfilerGetCounterAvailability");
    return std::vector<std::uint8_t>(16, 1);
  }
  std::size_t configure(const std::string&, const std::vector<std::uint8_t>&,
                        const std::vector<std::string>& metrics) override {
    step("configure", "cuptiProfilerHostConfigAddMetrics");
    for (const auto& m : metrics)
      if (m_state->unknown_metrics.count(m))
        throw detail::cupti_error(CUPTI_ERROR_INVALID_PARAMETER,
                                  "cuptiProfilerHostConfigAddMetrics");
    m_state->configured = metrics;
    return m_state->passes;
  }
  void enable() override {
    step("enable", "cuptiRangeProfilerEnable");
    m_state->enabled = true;
  }
  void set_config(std::size_t max_ranges, counter_replay replay) override {
    step("set_config", "cuptiRangeProfilerSetConfig");
    m_state->max_ranges = max_ranges;
    m_state->replay = replay;
    m_stops = 0;
  }
  void reset_counter_data() override {
    step("reset_counter_data", "cuptiRangeProfilerCounterDataImageInitialize");
    m_stops = 0;
  }
  void start() override {
    step("start", "cuptiRangeProfilerStart");
    m_state->started = true;
  }
  bool stop() override {
    step("stop", "cuptiRangeProfilerStop");
    m_state->started = false;
    return ++m_stops >= m_state->stops_until_all_submitted;
  }
  std::size_t decode() override {
    step("decode", "cuptiRangeProfilerDecodeData");
    return m_state->dropped;
  }
  std::size_t range_count() override {
    step("range_count", "cuptiRangeProfilerGetCounterDataInfo");
    return m_state->ranges.size();
  }
  std::string range_name(std::size_t range) override {
    step("range_name", "cuptiRangeProfilerCounterDataGetRangeInfo");
    return std::to_string(range);
  }
  std::vector<double> evaluate(std::size_t range) override {
    step("evaluate", "cuptiProfilerHostEvaluateToGpuValues");
    return m_state->ranges.at(range);
  }
  void disable() override {
    step("disable", "cuptiRangeProfilerDisable");
    m_state->enabled = false;
  }

 private:
  void step(const std::string& name, const char* call) {
    m_state->calls.push_back(name);
    if (auto it = m_state->fail_at.find(name); it != m_state->fail_at.end())
      throw detail::cupti_error(it->second, call);
  }

  std::shared_ptr<fake_state> m_state;
  int m_stops = 0;
};

inline std::unique_ptr<profiler_backend> make_fake(const std::shared_ptr<fake_state>& state) {
  return std::make_unique<fake_backend>(state);
}

}  // namespace cudalab::testing
