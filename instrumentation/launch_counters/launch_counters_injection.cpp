// Each kernel launch's DRAM bytes and local-memory traffic (cudalab/trace/launch_counters.hpp),
// for `cudalab profile` where counters are permitted: an injection library, loaded by the CUDA
// driver into a program started with CUDA_INJECTION64_PATH pointing at it, that runs CUPTI's Range
// Profiler with auto ranges (one range a launch) and kernel replay over the whole program, as
// NVIDIA's profiling injection sample does with the older API: at the first launch it opens the
// profiler on that launch's context; every `ranges_per_pass` launches it stops, decodes and empties
// the counter data and starts again; at the process's exit (an atexit handler registered at the
// first launch, so that it runs before the CUDA runtime's own teardown) or when the context is
// destroyed, it decodes the rest. Each launch becomes a line of CUDALAB_TRACE_OUTPUT in the
// tracer's format (cudalab/trace/trace_record.hpp) with its "range_counts", in launch order, or an
// "error" saying why it has none. It is the program's NVTX tool too (nvtx_ranges.hpp), so each
// line carries the ranges its launch was made in. Ranges are matched to the launch calls it saw
// one for one: a program that launches a CUDA graph (kernels with no launch call of their own)
// leaves more ranges than calls, and its lines say so instead of guessing.
//
// The counts are the hardware's for the program as it ran: what the L2 already held (the host's
// copies, the kernel before) is not read again, unlike Nsight Compute's default, which flushes
// the caches before each kernel. A metric set that needs several passes is replayed by CUPTI,
// kernel by kernel, with the device memory the kernel touches saved and restored.
#include "counters/cupti_check.hpp"
#include "cudalab/detail/cupti_host_config.hpp"
#include "cudalab/trace/launch_counters.hpp"
#include "cudalab/trace/trace_record.hpp"
#include "injection_entry.hpp"
#include "launch_calls.hpp"
#include "nvtx_ranges.hpp"

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace {

using cudalab::trace::traced_launch;

constexpr std::size_t ranges_per_pass = 64;

std::vector<std::string> metrics() {
  std::vector<std::string> names;
  for (const cudalab::trace::launch_counter& c : cudalab::trace::launch_counters)
    names.push_back(c.metric);
  return names;
}

class launch_counters {
 public:
  static launch_counters& get() { return cudalab::injection::lasting_instance<launch_counters>(); }

  void start();
  void launch_entered(const CUpti_CallbackData& call);
  void context_ending(CUcontext context);
  void end_of_program();

 private:
  void open_profiler(CUcontext context);
  void start_pass();
  // Stops the pass, decodes it and gives its ranges' bytes to the launches waiting for them.
  void finish_pass();
  void fail(const std::string& why);
  void write_all();

  std::mutex m_mutex;
  std::string m_output;
  CUpti_SubscriberHandle m_subscriber = nullptr;
  std::string m_failure;  // once set, every launch not yet counted carries it
  CUcontext m_context = nullptr;
  CUpti_RangeProfiler_Object* m_profiler = nullptr;
  std::optional<cudalab::detail::cupti_host_config> m_config;
  std::vector<std::uint8_t> m_counter_data;
  bool m_running = false;
  bool m_written = false;
  std::vector<traced_launch> m_launches;  // in launch order
  std::size_t m_counted = 0;              // launches whose bytes are known (or failed)
};

void CUPTIAPI callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    launch_counters::get().launch_entered(*static_cast<const CUpti_CallbackData*>(data));
  else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
    launch_counters::get().context_ending(static_cast<const CUpti_ResourceData*>(data)->context);
}

void launch_counters::fail(const std::string& why) {
  if (!m_failure.empty()) return;
  m_failure = why;
  std::fprintf(stderr, "cudalab launch counters: %s\n", why.c_str());
}

void launch_counters::start() {
  m_output = std::getenv("CUDALAB_TRACE_OUTPUT") ? std::getenv("CUDALAB_TRACE_OUTPUT") : "";
  if (m_output.empty()) {
    std::fprintf(stderr,
                 "cudalab launch counters: CUDALAB_TRACE_OUTPUT is not set: nothing counted\n");
    return;
  }
  try {
    CUDALAB_CHECK_CUPTI(cuptiSubscribe(&m_subscriber, callback, nullptr));
    CUDALAB_CHECK_CUPTI(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                            CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING));
    for (const CUpti_CallbackId id : cudalab::injection::kernel_launch_calls)
      CUDALAB_CHECK_CUPTI(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id));
  } catch (const cudalab::error& e) {
    fail(e.what());
  }
}

void launch_counters::open_profiler(CUcontext context) {
  m_context = context;
  auto initialize = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
  CUDALAB_CHECK_CUPTI(cuptiProfilerInitialize(&initialize));
  CUdevice device = 0;
  if (cuCtxGetDevice(&device) != CUDA_SUCCESS) throw cudalab::error("cuCtxGetDevice failed");
  auto chip = CUDALAB_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = static_cast<std::size_t>(device);
  CUDALAB_CHECK_CUPTI(cuptiDeviceGetChipName(&chip));
  auto available = CUDALAB_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  available.ctx = context;
  CUDALAB_CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&available));
  std::vector<std::uint8_t> availability(available.counterAvailabilityImageSize);
  available.pCounterAvailabilityImage = availability.data();
  CUDALAB_CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&available));
  m_config.emplace(chip.pChipName ? chip.pChipName : "", availability, metrics());

  auto enable = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = context;
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerEnable(&enable));
  m_profiler = enable.pRangeProfilerObject;

  std::vector<const char*> names;
  for (const cudalab::trace::launch_counter& c : cudalab::trace::launch_counters)
    names.push_back(c.metric);
  auto size = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = m_profiler;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = ranges_per_pass;
  size.maxNumRangeTreeNodes = ranges_per_pass;
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
  m_counter_data.assign(size.counterDataSize, 0);
  auto empty = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  empty.pRangeProfilerObject = m_profiler;
  empty.counterDataSize = m_counter_data.size();
  empty.pCounterData = m_counter_data.data();
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&empty));

  auto config = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  config.pRangeProfilerObject = m_profiler;
  config.configSize = m_config->image().size();
  config.pConfig = m_config->image().data();
  config.counterDataImageSize = m_counter_data.size();
  config.pCounterDataImage = m_counter_data.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = ranges_per_pass;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerSetConfig(&config));
}

void launch_counters::start_pass() {
  auto start = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
  start.pRangeProfilerObject = m_profiler;
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerStart(&start));
  m_running = true;
}

void launch_counters::finish_pass() {
  if (!m_running) return;
  m_running = false;
  if (cuCtxSynchronize() != CUDA_SUCCESS) throw cudalab::error("cuCtxSynchronize failed");
  auto stop = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = m_profiler;
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerStop(&stop));
  auto decode = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = m_profiler;
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerDecodeData(&decode));
  auto info = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = m_counter_data.data();
  info.counterDataImageSize = m_counter_data.size();
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  // The pass's ranges are its launches, in order; one the profiler dropped leaves its launch and
  // every later one of the pass without a count they could be matched to.
  const std::size_t waiting = m_launches.size() - m_counted;
  if (decode.numOfRangeDropped != 0 || info.numTotalRanges != waiting)
    throw cudalab::error("the profiler kept " + std::to_string(info.numTotalRanges) +
                         " ranges of " + std::to_string(waiting) + " launches (" +
                         std::to_string(decode.numOfRangeDropped) + " dropped)");
  for (std::size_t range = 0; range < info.numTotalRanges; ++range) {
    const std::vector<double> values = m_config->evaluate(m_counter_data, range);
    traced_launch& launch = m_launches[m_counted++];
    for (std::size_t i = 0; i < cudalab::trace::launch_counters.size(); ++i)
      launch.range_counts[cudalab::trace::launch_counters[i].column] =
          static_cast<std::uint64_t>(std::llround(values.at(i)));
  }
  auto empty = CUDALAB_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  empty.pRangeProfilerObject = m_profiler;
  empty.counterDataSize = m_counter_data.size();
  empty.pCounterData = m_counter_data.data();
  CUDALAB_CHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&empty));
}

void launch_counters::launch_entered(const CUpti_CallbackData& call) {
  if (call.callbackSite != CUPTI_API_ENTER) return;
  std::string nvtx = cudalab::injection::nvtx_path_of_this_thread();
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_written) return;
  traced_launch launch;
  launch.label = "every launch";
  launch.kernel = call.symbolName ? call.symbolName : "";
  launch.nvtx = std::move(nvtx);
  if (m_launches.empty())
    // Registered after the CUDA runtime's own (it initialised before this launch), so it runs
    // first at exit, while the context still lives.
    std::atexit([] { launch_counters::get().end_of_program(); });
  if (m_failure.empty() && m_context && call.context != m_context) {
    launch.error = "launched on another context than the first: DRAM counted on the first only";
    m_launches.push_back(std::move(launch));
    ++m_counted;  // never waits for a range
    return;
  }
  try {
    if (m_failure.empty() && !m_profiler) open_profiler(call.context);
    if (m_failure.empty() && m_launches.size() - m_counted == ranges_per_pass) finish_pass();
    if (m_failure.empty() && !m_running) start_pass();
  } catch (const cudalab::error& e) {
    m_running = false;
    fail(e.what());
  }
  m_launches.push_back(std::move(launch));
}

void launch_counters::context_ending(CUcontext context) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (context != m_context || !m_failure.empty()) return;
  try {
    finish_pass();
  } catch (const cudalab::error& e) {
    fail(e.what());
  }
}

void launch_counters::end_of_program() {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_written) return;
  if (m_failure.empty()) {
    try {
      finish_pass();
    } catch (const cudalab::error& e) {
      fail(e.what());
    }
  }
  write_all();
}

void launch_counters::write_all() {
  m_written = true;
  std::string lines;
  for (traced_launch& launch : m_launches) {
    if (launch.range_counts.empty() && launch.error.empty())
      launch.error = m_failure.empty() ? "its range was not decoded" : m_failure;
    lines += cudalab::trace::format_traced_launch(launch) + "\n";
  }
  using cudalab::injection::append_result;
  if (cudalab::injection::append_line(m_output, lines) != append_result::ok)
    std::fprintf(stderr, "cudalab launch counters: cannot write %s\n", m_output.c_str());
}

}  // namespace

namespace cudalab::injection {

void start() { launch_counters::get().start(); }
// The runner's marks mean nothing here: every launch is counted.
void begin_point(const char*) {}
void end_point() {}

}  // namespace cudalab::injection
