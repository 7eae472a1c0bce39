// The real profiler_backend: one CUPTI Range Profiler step per method, in the order
// counter_session.cpp describes. No policy lives here: counter_session decides the order and what
// a failure means. Every CUPTI call is checked and reported by name.
//
// cuptiProfilerInitialize is counted process-wide, so a probe and the sessions that follow
// each initialize and deinitialize without pulling the profiler from under one another.
#include "cudalab/detail/profiler_backend.hpp"

#include "cudalab/detail/cupti_host_config.hpp"
#include "cupti_check.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <mutex>
#include <optional>
#include <utility>

namespace cudalab {
namespace {

// The driver API through the runtime's entry points: linking libcuda would stop every test
// binary from loading on a machine without a driver, where the CPU tests must still run.
template <typename function>
function driver_function(const char* symbol, unsigned int version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  CUDALAB_CHECK_CUDA(
      cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || fn == nullptr)
    throw error(std::string("the CUDA driver has no ") + symbol);
  return reinterpret_cast<function>(fn);
}

void check_driver(CUresult code, const char* call) {
  if (code != CUDA_SUCCESS)
    throw error(std::string(call) + " failed: CUresult " + std::to_string(static_cast<int>(code)));
}

CUdevice driver_device(int device) {
  using get_fn = CUresult(CUDAAPI*)(CUdevice*, int);
  static const auto get = driver_function<get_fn>("cuDeviceGet", 2000);
  CUdevice dev = 0;
  check_driver(get(&dev, device), "cuDeviceGet");
  return dev;
}

CUcontext current_context() {
  using current_fn = CUresult(CUDAAPI*)(CUcontext*);
  static const auto current = driver_function<current_fn>("cuCtxGetCurrent", 4000);
  CUcontext ctx = nullptr;
  check_driver(current(&ctx), "cuCtxGetCurrent");
  return ctx;
}

std::mutex profiler_users_mutex;
int profiler_users = 0;

class cupti_backend final : public profiler_backend {
 public:
  cupti_backend() = default;
  cupti_backend(const cupti_backend&) = delete;  // owns CUPTI objects
  cupti_backend& operator=(const cupti_backend&) = delete;
  ~cupti_backend() override {
    release_profiler();
    m_config.reset();
    if (m_initialized) {
      std::lock_guard<std::mutex> lock(profiler_users_mutex);
      if (--profiler_users == 0) {
        auto params = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
        CUDALAB_CHECK_CUPTI_NOEXCEPT(cuptiProfilerDeInitialize(&params));
      }
    }
  }

  int device_count(std::string& why) override {
    int count = 0;
    if (const cudaError_t r = cudaGetDeviceCount(&count); r != cudaSuccess) {
      cudaGetLastError();
      why = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(r) + " (" +
            cudaGetErrorString(r) + ")";
      return 0;
    }
    if (count == 0) why = "the driver reports 0 devices";
    return count;
  }

  void compute_capability(int device, int& major, int& minor) override {
    CUDALAB_CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDALAB_CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  }

  void initialize() override {
    if (m_initialized) return;
    std::lock_guard<std::mutex> lock(profiler_users_mutex);
    if (profiler_users == 0) {
      auto params = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
      CUDALAB_CHECK_CUPTI(cuptiProfilerInitialize(&params));
    }
    ++profiler_users;
    m_initialized = true;
  }

  device_support device_supported(int device) override {
    const CUdevice dev = driver_device(device);
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    params.cuDevice = dev;
    params.api = CUPTI_PROFILER_RANGE_PROFILING;
    CUDALAB_CHECK_CUPTI(cuptiProfilerDeviceSupported(&params));
    device_support s;
    s.overall = params.isSupported;
    s.architecture = params.architecture;
    s.sli = params.sli;
    s.vgpu = params.vGpu;
    s.confidential_compute = params.confidentialCompute;
    s.cmp = params.cmp;
    s.wsl = params.wsl;
    return s;
  }

  std::string chip_name(int device) override {
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    params.deviceIndex = static_cast<std::size_t>(device);
    CUDALAB_CHECK_CUPTI(cuptiDeviceGetChipName(&params));
    return params.pChipName ? params.pChipName : "";
  }

  std::vector<std::uint8_t> counter_availability(int device) override {
    // The runtime's primary context, so kernels the caller launches are the ones profiled.
    CUDALAB_CHECK_CUDA(cudaSetDevice(device));
    CUDALAB_CHECK_CUDA(cudaFree(nullptr));
    m_ctx = current_context();
    if (m_ctx == nullptr) throw error("no current CUDA context after cudaFree(0)");

    auto params = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    params.ctx = m_ctx;
    CUDALAB_CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&params));
    std::vector<std::uint8_t> image(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = image.data();
    CUDALAB_CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&params));
    return image;
  }

  std::size_t configure(const std::string& chip, const std::vector<std::uint8_t>& availability,
                        const std::vector<std::string>& metrics) override {
    m_config.reset();
    m_config.emplace(chip, availability, metrics);
    return m_config->passes();
  }

  void enable() override {
    if (m_profiler) return;
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    params.ctx = m_ctx;
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerEnable(&params));
    m_profiler = params.pRangeProfilerObject;
  }

  void set_config(std::size_t max_ranges, counter_replay replay) override {
    if (!m_config) throw error("counter session: set_config before configure");
    std::vector<const char*> names;
    for (const auto& m : m_config->metrics()) names.push_back(m.c_str());

    auto size = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = m_profiler;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = max_ranges;
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
    m_counter_data.assign(size.counterDataSize, 0);

    reset_counter_data();

    auto config = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    config.pRangeProfilerObject = m_profiler;
    config.configSize = m_config->image().size();
    config.pConfig = m_config->image().data();
    config.counterDataImageSize = m_counter_data.size();
    config.pCounterDataImage = m_counter_data.data();
    config.range = CUPTI_AutoRange;
    config.replayMode = replay == counter_replay::user ? CUPTI_UserReplay : CUPTI_KernelReplay;
    config.maxRangesPerPass = max_ranges;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerSetConfig(&config));
  }

  void reset_counter_data() override {
    auto init = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = m_profiler;
    init.counterDataSize = m_counter_data.size();
    init.pCounterData = m_counter_data.data();
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));
  }

  void start() override {
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    params.pRangeProfilerObject = m_profiler;
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerStart(&params));
  }

  bool stop() override {
    CUDALAB_CHECK_CUDA(cudaDeviceSynchronize());
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    params.pRangeProfilerObject = m_profiler;
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerStop(&params));
    return params.isAllPassSubmitted != 0;
  }

  std::size_t decode() override {
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    params.pRangeProfilerObject = m_profiler;
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerDecodeData(&params));
    return params.numOfRangeDropped;
  }

  std::size_t range_count() override {
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    params.pCounterDataImage = m_counter_data.data();
    params.counterDataImageSize = m_counter_data.size();
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&params));
    return params.numTotalRanges;
  }

  std::string range_name(std::size_t range) override {
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
    params.pCounterDataImage = m_counter_data.data();
    params.counterDataImageSize = m_counter_data.size();
    params.rangeIndex = range;
    params.rangeDelimiter = "/";
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&params));
    return params.rangeName ? params.rangeName : std::to_string(range);
  }

  std::vector<double> evaluate(std::size_t range) override {
    return m_config->evaluate(m_counter_data, range);
  }

  void disable() override {
    if (!m_profiler) return;
    auto params = disable_params();
    CUDALAB_CHECK_CUPTI(cuptiRangeProfilerDisable(&params));
  }

 private:
  void release_profiler() noexcept {
    if (!m_profiler) return;
    auto params = disable_params();
    CUDALAB_CHECK_CUPTI_NOEXCEPT(cuptiRangeProfilerDisable(&params));
  }

  // The parameters that disable the profiler; it is forgotten here, before the call, so that a
  // failed disable is never tried again.
  CUpti_RangeProfiler_Disable_Params disable_params() noexcept {
    auto params = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    params.pRangeProfilerObject = std::exchange(m_profiler, nullptr);
    return params;
  }

  bool m_initialized = false;
  CUcontext m_ctx = nullptr;
  CUpti_RangeProfiler_Object* m_profiler = nullptr;
  std::optional<detail::cupti_host_config> m_config;
  std::vector<std::uint8_t> m_counter_data;
};

}  // namespace

std::unique_ptr<profiler_backend> make_cupti_backend() { return std::make_unique<cupti_backend>(); }

}  // namespace cudalab
