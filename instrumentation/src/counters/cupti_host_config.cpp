// The host half of the Range Profiler (cupti_profiler_host.h): configuration image, pass
// count and evaluation, for one chip. Runs without a GPU given a chip name.
#include "cudalab/detail/cupti_host_config.hpp"

#include "cupti_check.hpp"

#include <cupti_profiler_host.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace cudalab::detail {
namespace {

// The parameters of a call on the host object `host`.
template <class Params>
Params on_host(Params params, CUpti_Profiler_Host_Object* host) {
  params.pHostObject = host;
  return params;
}

// The parameters of a call that reads or fills the configuration image `image`, already sized.
template <class Params>
Params on_image(Params params, std::vector<std::uint8_t>& image) {
  params.configImageSize = image.size();
  params.pConfigImage = image.data();
  return params;
}

}  // namespace

cupti_host_config::cupti_host_config(const std::string& chip,
                                     const std::vector<std::uint8_t>& availability,
                                     const std::vector<std::string>& metrics)
    : m_metrics(metrics) {
  auto init = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  CUDALAB_CHECK_CUPTI(cuptiProfilerHostInitialize(&init));
  m_host = init.pHostObject;
  try {
    std::vector<const char*> names;
    for (const auto& m : m_metrics) names.push_back(m.c_str());
    auto add = on_host(CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params), m_host);
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    CUDALAB_CHECK_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));

    auto size =
        on_host(CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params), m_host);
    CUDALAB_CHECK_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    m_image.resize(size.configImageSize);

    auto image = on_image(
        on_host(CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params), m_host), m_image);
    CUDALAB_CHECK_CUPTI(cuptiProfilerHostGetConfigImage(&image));

    auto passes =
        on_image(CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params), m_image);
    CUDALAB_CHECK_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
    m_passes = passes.numOfPasses;
  } catch (...) {
    release();
    throw;
  }
}

cupti_host_config::~cupti_host_config() { release(); }

cupti_host_config::cupti_host_config(cupti_host_config&& other) noexcept
    : m_host(std::exchange(other.m_host, nullptr)),
      m_metrics(std::move(other.m_metrics)),
      m_image(std::move(other.m_image)),
      m_passes(std::exchange(other.m_passes, 0)) {}

cupti_host_config& cupti_host_config::operator=(cupti_host_config&& other) noexcept {
  if (this != &other) {
    release();
    m_host = std::exchange(other.m_host, nullptr);
    m_metrics = std::move(other.m_metrics);
    m_image = std::move(other.m_image);
    m_passes = std::exchange(other.m_passes, 0);
  }
  return *this;
}

void cupti_host_config::release() noexcept {
  if (!m_host) return;
  auto deinit = on_host(CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params), m_host);
  CUDALAB_CHECK_CUPTI_NOEXCEPT(cuptiProfilerHostDeinitialize(&deinit));
  m_host = nullptr;
}

std::vector<double> cupti_host_config::evaluate(const std::vector<std::uint8_t>& counter_data,
                                                std::size_t range) const {
  std::vector<const char*> names;
  for (const auto& m : m_metrics) names.push_back(m.c_str());
  std::vector<double> values(names.size(), 0.0);
  auto eval = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  eval.pHostObject = m_host;
  eval.pCounterDataImage = counter_data.data();
  eval.counterDataImageSize = counter_data.size();
  eval.rangeIndex = range;
  eval.ppMetricNames = names.data();
  eval.numMetrics = names.size();
  eval.pMetricValues = values.data();
  CUDALAB_CHECK_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&eval));
  return values;
}

std::vector<std::string> cupti_supported_chips() {
  auto chips = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
  CUDALAB_CHECK_CUPTI(cuptiProfilerHostGetSupportedChips(&chips));
  return {chips.ppChipNames, chips.ppChipNames + chips.numChips};
}

}  // namespace cudalab::detail
