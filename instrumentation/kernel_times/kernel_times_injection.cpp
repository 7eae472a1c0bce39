// Each kernel launch's GPU time, for `cudalab profile`: an injection library, loaded by the CUDA
// driver into a program started with CUDA_INJECTION64_PATH pointing at it, that patches no code,
// so the times are the program's own. CUPTI's activity API records every kernel as it ran (start
// and end on the GPU's clock, grid and block); a callback at each launch call keeps the NVTX
// ranges the launching thread had open (nvtx_ranges.hpp: NVTX_INJECTION64_PATH names this
// library too). When the process exits (an atexit handler registered at the first launch, so that
// it runs before the CUDA runtime's own teardown), the records are flushed and written to
// CUDALAB_TRACE_OUTPUT in the tracer's format (cudalab/trace/trace_record.hpp), a line a launch in
// the order of the launch calls (CUPTI's correlation ids), each with its "nanoseconds" and "nvtx".
// A program that does not reach its exit leaves no times.
#include "cudalab/trace/trace_record.hpp"
#include "injection_entry.hpp"
#include "launch_calls.hpp"
#include "nvtx_ranges.hpp"

#include <cupti.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {

using cudalab::trace::traced_launch;

constexpr std::size_t buffer_bytes = std::size_t{1} << 20;

class kernel_times {
 public:
  static kernel_times& get() { return cudalab::injection::lasting_instance<kernel_times>(); }

  void start();
  void launch_entered(const CUpti_CallbackData& call);
  void take(const CUpti_ActivityKernel10& record);
  void flush();  // CUPTI delivers every record it holds
  void end_of_program();

 private:
  void fail(const std::string& why) {
    std::fprintf(stderr, "cudalab kernel times: %s\n", why.c_str());
  }
  bool checked(CUptiResult result, const char* call) {
    if (result == CUPTI_SUCCESS) return true;
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown";
    fail(std::string(call) + " failed: " + text);
    return false;
  }

  std::mutex m_mutex;
  std::string m_output;
  CUpti_SubscriberHandle m_subscriber = nullptr;
  bool m_exit_registered = false;
  bool m_written = false;
  std::map<std::uint32_t, std::string> m_nvtx;  // by the launch call's correlation id
  // By the launch call's correlation id, once sorted: the order of the calls.
  std::vector<std::pair<std::uint32_t, traced_launch>> m_launches;
};

void CUPTIAPI give_buffer(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  *size = *buffer ? buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI take_buffer(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                          std::size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        record->kind == CUPTI_ACTIVITY_KIND_KERNEL)
      kernel_times::get().take(*reinterpret_cast<const CUpti_ActivityKernel10*>(record));
  std::free(buffer);
}

void CUPTIAPI callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    kernel_times::get().launch_entered(*static_cast<const CUpti_CallbackData*>(data));
  else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
    kernel_times::get().flush();  // the context's records go with it
}

void kernel_times::start() {
  m_output = std::getenv("CUDALAB_TRACE_OUTPUT") ? std::getenv("CUDALAB_TRACE_OUTPUT") : "";
  if (m_output.empty()) {
    fail("CUDALAB_TRACE_OUTPUT is not set: nothing is timed");
    return;
  }
  if (!checked(cuptiSubscribe(&m_subscriber, callback, nullptr), "cuptiSubscribe")) return;
  checked(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                              CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING),
          "cuptiEnableCallback(CONTEXT_DESTROY_STARTING)");
  // A graph's kernels carry the correlation id of the call that launched the graph.
  for (const CUpti_CallbackId id : cudalab::injection::kernel_launch_calls)
    checked(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id),
            "cuptiEnableCallback(launch)");
  for (const CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
    checked(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id),
            "cuptiEnableCallback(graph launch)");
  if (checked(cuptiActivityRegisterCallbacks(give_buffer, take_buffer),
              "cuptiActivityRegisterCallbacks"))
    checked(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
            "cuptiActivityEnable(CONCURRENT_KERNEL)");
}

void kernel_times::launch_entered(const CUpti_CallbackData& call) {
  if (call.callbackSite != CUPTI_API_ENTER) return;
  std::string path = cudalab::injection::nvtx_path_of_this_thread();
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!path.empty()) m_nvtx[call.correlationId] = std::move(path);
  if (m_exit_registered) return;
  m_exit_registered = true;
  // Registered after the CUDA runtime's own (it initialised before this launch), so it runs
  // first at exit, while the context still lives.
  std::atexit([] { kernel_times::get().end_of_program(); });
}

void kernel_times::take(const CUpti_ActivityKernel10& record) {
  traced_launch launch;
  launch.label = "every launch";
  launch.kernel = record.name ? record.name : "";
  launch.grid = {static_cast<unsigned>(record.gridX), static_cast<unsigned>(record.gridY),
                 static_cast<unsigned>(record.gridZ)};
  launch.block = {static_cast<unsigned>(record.blockX), static_cast<unsigned>(record.blockY),
                  static_cast<unsigned>(record.blockZ)};
  launch.nanoseconds = record.end > record.start ? record.end - record.start : 1;
  std::lock_guard<std::mutex> lock(m_mutex);
  const auto nvtx = m_nvtx.find(record.correlationId);
  if (nvtx != m_nvtx.end()) launch.nvtx = nvtx->second;
  m_launches.emplace_back(record.correlationId, std::move(launch));
}

void kernel_times::flush() {
  checked(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
}

void kernel_times::end_of_program() {
  flush();
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_written) return;
  m_written = true;
  std::stable_sort(m_launches.begin(), m_launches.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string lines;
  for (const auto& [call, launch] : m_launches)
    lines += cudalab::trace::format_traced_launch(launch) + "\n";
  using cudalab::injection::append_result;
  if (cudalab::injection::append_line(m_output, lines) != append_result::ok)
    fail("cannot write " + m_output);
}

}  // namespace

namespace cudalab::injection {

void start() { kernel_times::get().start(); }
// The runner's marks mean nothing here: every launch is timed.
void begin_point(const char*) {}
void end_point() {}

}  // namespace cudalab::injection
