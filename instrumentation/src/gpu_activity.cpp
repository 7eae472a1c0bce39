// The inventory of what the GPU did (gpu_activity.hpp): CUPTI's activity API lists the kernels,
// copies and memsets that ran; its callback API tells, at each launch call, whose code made it.
#include "cudalab/gpu_activity.hpp"

#include "counters/cupti_check.hpp"
#include "cudalab/check.hpp"
#include "cudalab/kernel_name.hpp"

#include <cupti.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace cudalab {

bool is_library_kernel_name(const std::string& demangled) {
  // The library's namespace may sit inside another (CUB_WRAPPED_NAMESPACE puts CUB in one of
  // the learner's choosing): a library's namespace anywhere in the name makes it the library's.
  const std::string& name = demangled;
  for (const char* library : {"cub", "thrust", "cutlass", "cute", "cuda"}) {
    const std::string first = std::string(library) + "::", inner = "::" + first;
    if (name.rfind(first, 0) == 0) return true;
    // Only the kernel's own qualified name, not its template arguments, names its namespace.
    const std::size_t arguments = name.find('<');
    const std::size_t at = name.find(inner);
    if (at != std::string::npos && at < arguments) return true;
  }
  return false;
}

namespace {

// Who launched a kernel, decided at the launch call.
struct launcher {
  std::string file;
  bool own = false;
};

std::string base_name(const char* path) {
  if (path == nullptr || *path == '\0') return "";
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

bool is_cuda_library(const std::string& file) {
  for (const char* prefix : {"libcuda.so", "libcupti", "libcudart.so"})
    if (file.rfind(prefix, 0) == 0) return true;
  return false;
}

// The code that made the current launch call: the first frame past the driver, CUPTI and the
// shared CUDA runtime (the callback runs inside them). A library that carries its own static
// runtime (cuBLAS) is that library; this program's own launches are this program.
launcher calling_code() {
  void* frames[64];
  const int depth = backtrace(frames, 64);
  Dl_info self{};
  dladdr(reinterpret_cast<void*>(&is_library_kernel_name), &self);
  bool inside_cuda = false;
  for (int i = 0; i < depth; ++i) {
    Dl_info info{};
    if (dladdr(frames[i], &info) == 0) continue;
    const std::string file = base_name(info.dli_fname);
    if (is_cuda_library(file)) {
      inside_cuda = true;
      continue;
    }
    if (!inside_cuda) continue;  // the callback itself, in this program
    const bool own = info.dli_fbase == self.dli_fbase;
    return {own ? base_name(program_invocation_short_name) : file, own};
  }
  return {"code the stack does not show", false};
}

bool is_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (id) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
      // A graph's kernels carry the correlation id of the call that launched the graph.
      case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
        return true;
      default:
        return false;
    }
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
      case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
        return true;
      default:
        return false;
    }
  }
  return false;
}

std::string copy_kind(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "copy host to device";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "copy device to host";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "copy device to device";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "copy host to host";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "copy peer to peer";
    default:
      return "copy to or from an array";
  }
}

constexpr CUpti_ActivityKind recorded_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET};

}  // namespace

struct gpu_activity_recorder::state {
  std::mutex lock;
  std::map<std::uint32_t, launcher> launchers;  // by the launch call's correlation id
  struct kernel_record {
    std::string name;
    std::uint32_t correlation = 0;
  };
  std::vector<kernel_record> kernels;
  std::vector<data_movement> copies;
  CUpti_SubscriberHandle subscriber = nullptr;
  std::vector<CUpti_ActivityKind> enabled;
  std::string reason;  // why no inventory, when there is none
  bool finished = false;
};

namespace {

// CUPTI's buffer callbacks are process-wide: they deliver to the one recorder alive.
std::mutex g_current_lock;
gpu_activity_recorder::state* g_current = nullptr;

constexpr std::size_t buffer_bytes = 1 << 20;

void CUPTIAPI give_buffer(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  *size = *buffer ? buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI take_buffer(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                          std::size_t valid) {
  std::lock_guard<std::mutex> current(g_current_lock);
  CUpti_Activity* record = nullptr;
  while (g_current && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    std::lock_guard<std::mutex> guard(g_current->lock);
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        g_current->kernels.push_back({kernel_display_name(k->name), k->correlationId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        g_current->copies.push_back({copy_kind(m->copyKind), static_cast<std::size_t>(m->bytes)});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
        g_current->copies.push_back({"copy peer to peer", static_cast<std::size_t>(m->bytes)});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        g_current->copies.push_back({"memset", static_cast<std::size_t>(m->bytes)});
        break;
      }
      default:
        break;
    }
  }
  std::free(buffer);
}

void CUPTIAPI on_api(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                     const void* data) {
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (call->callbackSite != CUPTI_API_ENTER || !is_launch(domain, id)) return;
  auto* s = static_cast<gpu_activity_recorder::state*>(user);
  launcher who = calling_code();
  std::lock_guard<std::mutex> guard(s->lock);
  s->launchers.emplace(call->correlationId, std::move(who));
}

}  // namespace

gpu_activity_recorder::gpu_activity_recorder() : m_state(std::make_unique<state>()) {
  std::lock_guard<std::mutex> current(g_current_lock);
  if (g_current) {
    m_state->reason = "another inventory is being taken in this process";
    return;
  }
  try {
    // Work queued before the inventory is not the inventory's.
    CUDALAB_CHECK_CUDA(cudaDeviceSynchronize());
    const CUptiResult subscribed = cuptiSubscribe(&m_state->subscriber, on_api, m_state.get());
    if (subscribed != CUPTI_SUCCESS) {
      m_state->subscriber = nullptr;
      m_state->reason = "CUPTI is held by another tool (" + detail::cupti_result_name(subscribed) +
                        "); run cudalab check outside nsys, ncu and other profilers";
      return;
    }
    CUDALAB_CHECK_CUPTI(cuptiEnableDomain(1, m_state->subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
    CUDALAB_CHECK_CUPTI(cuptiEnableDomain(1, m_state->subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
    CUDALAB_CHECK_CUPTI(cuptiActivityRegisterCallbacks(give_buffer, take_buffer));
    g_current = m_state.get();
    for (CUpti_ActivityKind kind : recorded_kinds) {
      CUDALAB_CHECK_CUPTI(cuptiActivityEnable(kind));
      m_state->enabled.push_back(kind);
    }
  } catch (const error& e) {
    m_state->reason = e.what();
  }
}

gpu_activity gpu_activity_recorder::finish() {
  gpu_activity out;
  if (m_state->finished) throw error("gpu_activity_recorder::finish called twice");
  m_state->finished = true;
  if (!m_state->reason.empty()) {
    out.reason = m_state->reason;
    return out;
  }
  try {
    CUDALAB_CHECK_CUDA(cudaDeviceSynchronize());
    CUDALAB_CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  } catch (const error& e) {
    out.reason = e.what();
    return out;
  }
  std::lock_guard<std::mutex> guard(m_state->lock);
  for (const auto& k : m_state->kernels) {
    launched_kernel entry{k.name, "a device-side launch or code the stack does not show", false};
    if (const auto it = m_state->launchers.find(k.correlation); it != m_state->launchers.end()) {
      entry.launched_by = it->second.file;
      entry.own = it->second.own && !is_library_kernel_name(k.name);
    }
    out.kernels.push_back(std::move(entry));
  }
  out.copies = m_state->copies;
  out.available = true;
  return out;
}

gpu_activity_recorder::~gpu_activity_recorder() {
  for (CUpti_ActivityKind kind : m_state->enabled)
    CUDALAB_CHECK_CUPTI_NOEXCEPT(cuptiActivityDisable(kind));
  if (!m_state->enabled.empty())
    CUDALAB_CHECK_CUPTI_NOEXCEPT(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  {
    std::lock_guard<std::mutex> current(g_current_lock);
    if (g_current == m_state.get()) g_current = nullptr;
  }
  if (m_state->subscriber) CUDALAB_CHECK_CUPTI_NOEXCEPT(cuptiUnsubscribe(m_state->subscriber));
}

}  // namespace cudalab
