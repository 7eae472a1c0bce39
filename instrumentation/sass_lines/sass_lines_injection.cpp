// The hardware's counts per instruction for cudalab run --lines: an injection library, loaded by
// the CUDA driver into a program started with CUDA_INJECTION64_PATH pointing at it (the runner
// starts itself so, one point and one kernel function a process: see sass_metrics_session.hpp).
//
// It exports the runner's marks, as the tracer does (cudalab/trace/trace_marks.hpp), so the
// same runner code marks the point. Within the point named by CUDALAB_SASS_POINT (the first
// marked point when unset), the kernel functions are numbered in the order of their first
// launch; just before the first launch of function number CUDALAB_SASS_FUNCTION (default 0) a
// SASS Metrics session starts, and when the point ends its counts are written to
// CUDALAB_TRACE_OUTPUT in the tracer's format (cudalab/trace/trace_record.hpp): one line for the
// measured function, with its pcs, and one line with an error for each other function the point
// launched, so the runner knows how many processes the point needs. Module code is saved in
// CUDALAB_TRACE_CUBINS for the pcs' source lines.
//
// `cudalab profile` (CUDALAB_SASS_EVERY_LAUNCH=1) measures a program that sets no marks: the
// whole process is the point, its kernel functions numbered in the order of their first launch,
// and the counts are written when the process ends (an atexit handler registered once the
// session is open, so that it runs before the CUDA runtime's own teardown), or when the context
// is destroyed first (cudaDeviceReset). Each line carries the launches of its function.
//
// Callbacks are not re-entered: CUPTI's own work inside a callback (patching loads a module) may
// raise another callback on the same thread; those are skipped, as the tracer skips them.
#include "cudalab/trace/trace_record.hpp"
#include "injection_entry.hpp"
#include "launch_calls.hpp"
#include "sass_metrics_session.hpp"

#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

using namespace cudalab::trace;
using cudalab::sass_lines::cupti_failure;
using cudalab::sass_lines::sass_metrics_session;
using cudalab::sass_lines::sass_pc;

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

class sass_lines {
 public:
  static sass_lines& get() { return cudalab::injection::lasting_instance<sass_lines>(); }

  void start();
  void on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data);
  void begin_point(const char* label);
  void end_point();
  // The end of an every-launch run: the process exits, or the measured context is destroyed.
  void end_of_program(bool context_alive);
  void finish_every_launch(bool synchronize);

 private:
  void module_loaded(const CUpti_ResourceData& resource);
  void launch_entered(const CUpti_CallbackData& launch);
  void finish_point(bool synchronize = true);
  void write(const traced_launch& launch);
  void fail(const std::string& why) {
    std::fprintf(stderr, "cudalab sass lines: %s\n", why.c_str());
    if (m_failure.empty()) m_failure = why;
  }

  std::mutex m_mutex;
  std::string m_output;
  std::string m_cubin_dir;
  std::string m_point;  // the label to measure; empty: the first marked point
  std::size_t m_target = 0;
  std::string m_label;  // of the point now marked, when it is the one measured
  bool m_point_done = false;
  bool m_every_launch = false;                           // `cudalab profile`: no marks
  std::map<std::string, std::uint64_t> m_launch_counts;  // a function's launches in the point
  std::vector<std::string> m_functions;  // of the measured point, in order of first launch
  std::string m_measured;                // the function the session measures
  CUcontext m_context = nullptr;
  std::unique_ptr<sass_metrics_session> m_session;
  std::string m_failure;
  std::map<std::uint32_t, std::string> m_cubins;  // CRC (as the SASS records give it) -> file
  CUpti_SubscriberHandle m_subscriber = nullptr;
};

thread_local int callback_depth = 0;

void CUPTIAPI callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                       const void* data) {
  if (callback_depth > 0) return;
  ++callback_depth;
  static_cast<sass_lines*>(userdata)->on_callback(domain, id, data);
  --callback_depth;
}

void sass_lines::start() {
  m_output = variable("CUDALAB_TRACE_OUTPUT");
  if (m_output.empty()) {
    std::fprintf(stderr,
                 "cudalab sass lines: CUDALAB_TRACE_OUTPUT is not set: nothing is measured\n");
    return;
  }
  m_cubin_dir = variable("CUDALAB_TRACE_CUBINS");
  m_point = variable("CUDALAB_SASS_POINT");
  const std::string target = variable("CUDALAB_SASS_FUNCTION");
  if (!target.empty()) {
    char* end = nullptr;
    const unsigned long index = std::strtoul(target.c_str(), &end, 10);
    if (*end != '\0') {
      fail("CUDALAB_SASS_FUNCTION must be a function's number from 0, not '" + target + "'");
      return;
    }
    m_target = index;
  }
  if (variable("CUDALAB_SASS_EVERY_LAUNCH") == "1") {
    m_every_launch = true;
    m_label = "every launch";
    // Writes the lines even where the measured function never ran (no session to flush).
    std::atexit([] { sass_lines::get().end_of_program(false); });
  }
  const auto checked = [this](CUptiResult result, const char* call) {
    if (result == CUPTI_SUCCESS) return true;
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown";
    fail(std::string(call) + " failed: " + text);
    return false;
  };
  if (!checked(cuptiSubscribe(&m_subscriber, callback, this), "cuptiSubscribe")) return;
  checked(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                              CUPTI_CBID_RESOURCE_MODULE_LOADED),
          "cuptiEnableCallback(MODULE_LOADED)");
  if (m_every_launch)
    checked(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING),
            "cuptiEnableCallback(CONTEXT_DESTROY_STARTING)");
  for (const CUpti_CallbackId id : cudalab::injection::kernel_launch_calls)
    checked(cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id),
            "cuptiEnableCallback(launch)");
}

void sass_lines::on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_MODULE_LOADED)
    module_loaded(*static_cast<const CUpti_ResourceData*>(data));
  else if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
           id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && m_session &&
           static_cast<const CUpti_ResourceData*>(data)->context == m_context)
    finish_every_launch(false);
  else if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    launch_entered(*static_cast<const CUpti_CallbackData*>(data));
}

void sass_lines::module_loaded(const CUpti_ResourceData& resource) {
  const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource.resourceDescriptor);
  if (m_cubin_dir.empty() || !module || !module->pCubin || module->cubinSize == 0) return;
  CUpti_GetCubinCrcParams crc{};
  crc.size = CUpti_GetCubinCrcParamsSize;
  crc.cubinSize = module->cubinSize;
  crc.cubin = module->pCubin;
  if (cuptiGetCubinCrc(&crc) != CUPTI_SUCCESS) return;  // its pcs are then shown without lines
  const std::string path =
      m_cubin_dir + "/sass-module-" + std::to_string(m_cubins.size()) + ".cubin";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    const bool ok = std::fwrite(module->pCubin, 1, module->cubinSize, f) == module->cubinSize;
    if (std::fclose(f) == 0 && ok) m_cubins[static_cast<std::uint32_t>(crc.cubinCrc)] = path;
  }
}

void sass_lines::launch_entered(const CUpti_CallbackData& launch) {
  if (launch.callbackSite != CUPTI_API_ENTER || m_label.empty()) return;
  const std::string function = launch.symbolName ? launch.symbolName : "";
  std::size_t index = 0;
  while (index < m_functions.size() && m_functions[index] != function) ++index;
  if (index == m_functions.size()) m_functions.push_back(function);
  ++m_launch_counts[function];
  if (index != m_target || m_session || !m_failure.empty()) return;
  try {
    CUdevice device = 0;
    if (cuCtxGetDevice(&device) != CUDA_SUCCESS) throw cupti_failure("cuCtxGetDevice failed");
    m_session = std::make_unique<sass_metrics_session>(launch.context, static_cast<int>(device));
    m_context = launch.context;
    m_measured = function;
    // Registered after the CUDA runtime's own (it initialised before this launch), so it runs
    // first at exit, while the context still lives.
    if (m_every_launch) std::atexit([] { sass_lines::get().end_of_program(true); });
  } catch (const cupti_failure& e) {
    fail(e.what());
  }
}

void sass_lines::begin_point(const char* label) {
  std::lock_guard<std::mutex> lock(m_mutex);
  const std::string name = label ? label : "";
  if (!m_point_done && (m_point.empty() || m_point == name)) m_label = name;
}

void sass_lines::end_point() {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_label.empty()) return;
  finish_point();
  m_label.clear();
  m_point_done = true;
}

void sass_lines::end_of_program(bool context_alive) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!context_alive && m_session) return;  // the session's own handler has run, or will
  finish_every_launch(context_alive);
}

void sass_lines::finish_every_launch(bool synchronize) {
  if (!m_every_launch || m_point_done) return;
  // At exit the thread may hold no context; in the destroy callback it holds the one going.
  const bool pushed = synchronize && m_session && cuCtxPushCurrent(m_context) == CUDA_SUCCESS;
  finish_point(synchronize);
  if (pushed) {
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  }
  m_point_done = true;
}

void sass_lines::finish_point(bool synchronize) {
  traced_launch measured;
  measured.label = m_label;
  measured.launches = m_launch_counts[m_measured];
  measured.kernel = m_measured;
  if (m_session) {
    try {
      // In the context's destroy callback the driver has finished its work and is tearing the
      // context down: no synchronisation there.
      if (synchronize && cuCtxSynchronize() != CUDA_SUCCESS)
        throw cupti_failure("cuCtxSynchronize failed before reading the counts");
      for (const sass_pc& pc : m_session->flush()) {
        if (pc.function != m_measured) continue;  // another function cannot record (see header)
        const auto value = [&pc](const char* name) {
          const auto found = pc.values.find(name);
          return found == pc.values.end() ? std::uint64_t{0} : found->second;
        };
        const auto cubin = m_cubins.find(pc.cubin_crc);
        if (cubin != m_cubins.end()) measured.cubin = cubin->second;
        traced_pc out;
        out.offset = pc.offset;
        // Whether the pc loads or stores in `space`, counted by the two metrics: its space,
        // kind and instructions set where it does.
        const auto accesses = [&](cudalab::model::memory_space space, const char* loads,
                                  const char* stores) {
          if (value(loads) + value(stores) == 0) return false;
          const bool load = value(loads) > 0;
          out.space = space;
          out.kind = load ? traced_kind::load : traced_kind::store;
          out.instructions = value(load ? loads : stores);
          return true;
        };
        if (value("inst_executed_op_ldgsts") > 0) {
          // cp.async: a global load, as the model and the Range Profiler's counters take it. Its
          // write into shared memory is left out, as the model and the tracer leave it.
          out.space = cudalab::model::memory_space::global;
          out.kind = traced_kind::load;
          out.instructions = value("inst_executed_op_ldgsts");
          out.sectors = value("sectors_mem_global");
        } else if (accesses(cudalab::model::memory_space::global, "inst_executed_op_global_ld",
                            "inst_executed_op_global_st")) {
          out.sectors = value("sectors_mem_global");
        } else if (accesses(cudalab::model::memory_space::shared, "inst_executed_op_shared_ld",
                            "inst_executed_op_shared_st")) {
          out.wavefronts = value("l1tex_pipe_lsu_wavefronts_mem_shared");
          out.ideal = value("l1tex_pipe_lsu_wavefronts_mem_shared_ideal");
        } else {
          continue;  // no load or store: an atomic, or an instruction that never ran
        }
        measured.pcs.push_back(out);
      }
    } catch (const cupti_failure& e) {
      fail(e.what());
    }
    m_session.reset();
  }
  if (!m_failure.empty()) measured.error = m_failure;
  for (const std::string& function : m_functions) {
    if (function == m_measured) {
      write(measured);
    } else {
      traced_launch other;
      other.label = m_label;
      other.kernel = function;
      other.launches = m_launch_counts[function];
      other.error =
          m_failure.empty() ? "measured in another process (one function a process)" : m_failure;
      write(other);
    }
  }
}

void sass_lines::write(const traced_launch& launch) {
  switch (cudalab::injection::append_line(m_output, format_traced_launch(launch) + "\n")) {
    case cudalab::injection::append_result::cannot_open:
      std::fprintf(stderr, "cudalab sass lines: cannot append to %s\n", m_output.c_str());
      break;
    case cudalab::injection::append_result::cannot_write:
      std::fprintf(stderr, "cudalab sass lines: cannot write %s\n", m_output.c_str());
      break;
    case cudalab::injection::append_result::ok:
      break;
  }
}

}  // namespace

// The hooks of injection_entry.hpp: the runner's marks arrive under the tracer's names.
namespace cudalab::injection {
void start() { ::sass_lines::get().start(); }
void begin_point(const char* label) { ::sass_lines::get().begin_point(label); }
void end_point() { ::sass_lines::get().end_point(); }
}  // namespace cudalab::injection
