// The tracer's injection library: loaded by the CUDA driver into a program started with
// CUDA_INJECTION64_PATH pointing at it (cudalab run --trace starts such a program: itself).
//
// On each module load it saves the module's code (for --lines), adds the patch
// (tracer_patches.cu) and patches every global and shared memory instruction. The runner marks
// the launches it wants traced (cudalab_tracer_begin_point / _end_point, found with dlsym by
// cudalab/trace/trace_marks.hpp); a marked launch gets a zeroed table of per-pc totals, read back
// when the launch ends and written as one line of the file CUDALAB_TRACE_OUTPUT names
// (cudalab/trace/trace_record.hpp). Unmarked launches run patched but return at once.
//
// Environment: CUDALAB_TRACE_EVERY_LAUNCH=1 (cudalab profile: every launch traced, no marks
// needed), CUDALAB_TRACE_OUTPUT (required: the file to append to), CUDALAB_TRACE_PATCHES
// (the patch fatbin; default: beside this library), CUDALAB_TRACE_CUBINS (a folder to save module
// code in; default: none, and --lines cannot map pcs), CUDALAB_TRACE_DEBUG or CUDALAB_TRACE_KEEP
// (non-empty: one line per stage on stderr, the traced child's log, so that a run that stops
// shows the last stage it reached).
//
// Callbacks are not re-entered: a Sanitizer API call made from inside a callback (adding the
// patch loads a module; a memset may launch a kernel) can raise a callback of its own on the same
// thread, and taking the tracer's (non-recursive) lock again there would deadlock that thread
// forever. Such nested callbacks concern the tracer's own work and are logged and skipped.
#include "cudalab/trace/device_table.hpp"
#include "cudalab/trace/trace_record.hpp"
#include "injection_entry.hpp"

#include <dlfcn.h>
#include <sanitizer.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using namespace cudalab::trace;

// The stage log: unbuffered write(2)s to stderr, each line stamped with the seconds since the
// library started (CLOCK_MONOTONIC) and the calling thread, so that nothing is lost when the
// process is killed.
class stage_log {
 public:
  static stage_log& get() {
    static stage_log* instance = new stage_log();  // never destroyed: callbacks may outlive exit
    return *instance;
  }
  bool on() const noexcept { return m_on; }
  void line(const char* format, ...) __attribute__((format(printf, 2, 3))) {
    if (!m_on) return;
    char text[768];
    const int head = std::snprintf(text, sizeof text, "cudalab tracer [%10.6f s, thread %ld] ",
                                   seconds() - m_start, static_cast<long>(::syscall(SYS_gettid)));
    std::va_list args;
    va_start(args, format);
    const int body = std::vsnprintf(text + head, sizeof text - head - 1, format, args);
    va_end(args);
    std::size_t n = static_cast<std::size_t>(head) +
                    std::min<std::size_t>(body < 0 ? 0 : body, sizeof text - head - 2);
    text[n++] = '\n';
    for (std::size_t done = 0; done < n;) {
      const ssize_t w = ::write(STDERR_FILENO, text + done, n - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
  }

 private:
  stage_log() : m_on(set("CUDALAB_TRACE_DEBUG") || set("CUDALAB_TRACE_KEEP")), m_start(seconds()) {}
  static bool set(const char* name) {  // switches the tool checked at start: 1 or 0
    const char* value = std::getenv(name);
    return value && std::string(value) == "1";
  }
  static double seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
  bool m_on;
  double m_start;
};

#define CUDALAB_STAGE(...) stage_log::get().line(__VA_ARGS__)

struct context_buffers {
  void* table = nullptr;  // table_bytes, zeroed before each traced launch
  void* off = nullptr;    // a header with enabled = 0, for launches nobody traces
};

struct pending_launch {
  std::string label;
  std::string kernel;
  CUmodule module = nullptr;
  void* table = nullptr;
  std::array<unsigned, 3> grid{0, 0, 0};
  std::array<unsigned, 3> block{0, 0, 0};
};

class tracer {
 public:
  static tracer& get() { return cudalab::injection::lasting_instance<tracer>(); }

  void start();
  void on_callback(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data);
  void begin_point(const char* label) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_label = label ? label : "";
  }
  void end_point() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_label.clear();
  }

 private:
  // Records the first failure of a Sanitizer API call: every later traced launch reports it.
  bool check(SanitizerResult result, const char* call);
  void module_loaded(const Sanitizer_ResourceModuleData& module);
  void launch_begin(const Sanitizer_LaunchData& launch);
  void launch_end(const Sanitizer_LaunchData& launch);
  context_buffers* buffers_for(CUcontext context, Sanitizer_StreamHandle stream);
  void write(const traced_launch& launch);

  std::mutex m_mutex;
  std::string m_output;
  std::string m_patches;
  std::string m_cubin_dir;
  std::string m_label;
  std::string m_failure;
  Sanitizer_SubscriberHandle m_subscriber = nullptr;
  std::map<CUcontext, context_buffers> m_buffers;
  std::map<CUmodule, std::string> m_cubins;
  std::map<Sanitizer_LaunchHandle, pending_launch> m_pending;
  int m_modules = 0;
};

std::string beside_this_library(const char* name) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&beside_this_library), &info) == 0 || !info.dli_fname)
    return name;
  std::string path = info.dli_fname;
  const auto slash = path.rfind('/');
  return (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + name;
}

thread_local int callback_depth = 0;

void callback(void* userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
              const void* data) {
  if (callback_depth > 0) {
    CUDALAB_STAGE("nested callback (domain %d, cbid %d) from the tracer's own API call: skipped",
                  static_cast<int>(domain), static_cast<int>(cbid));
    return;
  }
  ++callback_depth;
  static_cast<tracer*>(userdata)->on_callback(domain, cbid, data);
  --callback_depth;
}

bool tracer::check(SanitizerResult result, const char* call) {
  CUDALAB_STAGE("  %s: %s", call, result == SANITIZER_SUCCESS ? "ok" : "FAILED");
  if (result == SANITIZER_SUCCESS) return true;
  const char* text = nullptr;
  if (sanitizerGetResultString(result, &text) != SANITIZER_SUCCESS || !text) text = "unknown";
  const std::string what = std::string(call) + " failed: " + text + " (" +
                           std::to_string(static_cast<int>(result)) + ")";
  std::fprintf(stderr, "cudalab tracer: %s\n", what.c_str());
  if (m_failure.empty()) m_failure = what;
  return false;
}

void tracer::start() {
  CUDALAB_STAGE("injection initialised (pid %ld)", static_cast<long>(::getpid()));
  const char* output = std::getenv("CUDALAB_TRACE_OUTPUT");
  if (!output || !*output) {
    std::fprintf(stderr, "cudalab tracer: CUDALAB_TRACE_OUTPUT is not set: nothing is traced\n");
    return;
  }
  m_output = output;
  const char* patches = std::getenv("CUDALAB_TRACE_PATCHES");
  m_patches = patches && *patches ? patches : beside_this_library("cudalab_tracer_patches.fatbin");
  if (const char* dir = std::getenv("CUDALAB_TRACE_CUBINS"); dir && *dir) m_cubin_dir = dir;
  // `cudalab profile`: a program that is not a lab sets no marks; every launch is traced, under
  // one label.
  if (const char* every = std::getenv("CUDALAB_TRACE_EVERY_LAUNCH");
      every && std::string(every) == "1")
    m_label = "every launch";
  CUDALAB_STAGE("output %s, patches %s; subscribing", m_output.c_str(), m_patches.c_str());
  if (!check(sanitizerSubscribe(&m_subscriber, callback, this), "sanitizerSubscribe")) return;
  check(sanitizerEnableDomain(1, m_subscriber, SANITIZER_CB_DOMAIN_RESOURCE),
        "sanitizerEnableDomain(RESOURCE)");
  check(sanitizerEnableDomain(1, m_subscriber, SANITIZER_CB_DOMAIN_LAUNCH),
        "sanitizerEnableDomain(LAUNCH)");
  CUDALAB_STAGE("subscribed: waiting for modules and launches");
}

void tracer::on_callback(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                         const void* data) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (domain == SANITIZER_CB_DOMAIN_RESOURCE &&
      cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED)
    CUDALAB_STAGE("context created");
  if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED)
    module_loaded(*static_cast<const Sanitizer_ResourceModuleData*>(data));
  else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN)
    launch_begin(*static_cast<const Sanitizer_LaunchData*>(data));
  else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_END)
    launch_end(*static_cast<const Sanitizer_LaunchData*>(data));
}

void tracer::module_loaded(const Sanitizer_ResourceModuleData& module) {
  CUDALAB_STAGE("module loaded (%zu bytes of code): saving it and patching", module.cubinSize);
  if (!m_cubin_dir.empty() && module.pCubin && module.cubinSize > 0) {
    const std::string path = m_cubin_dir + "/module-" + std::to_string(m_modules++) + ".cubin";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      const bool ok = std::fwrite(module.pCubin, 1, module.cubinSize, f) == module.cubinSize;
      if (std::fclose(f) == 0 && ok) m_cubins[module.module] = path;
    }
  }
  if (!check(sanitizerAddPatchesFromFile(m_patches.c_str(), module.context),
             "sanitizerAddPatchesFromFile"))
    return;
  if (!check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, module.module,
                                        "cudalab_trace_global"),
             "sanitizerPatchInstructions(GLOBAL_MEMORY_ACCESS)"))
    return;
  if (!check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, module.module,
                                        "cudalab_trace_shared"),
             "sanitizerPatchInstructions(SHARED_MEMORY_ACCESS)"))
    return;
  // cp.async (LDGSTS) is not a global memory access to the API: it has a callback of its own.
  if (!check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_MEMCPY_ASYNC, module.module,
                                        "cudalab_trace_memcpy_async"),
             "sanitizerPatchInstructions(MEMCPY_ASYNC)"))
    return;
  check(sanitizerPatchModule(module.module), "sanitizerPatchModule");
  CUDALAB_STAGE("module patched");
}

context_buffers* tracer::buffers_for(CUcontext context, Sanitizer_StreamHandle stream) {
  auto found = m_buffers.find(context);
  if (found != m_buffers.end()) return &found->second;
  context_buffers b;
  if (!check(sanitizerAlloc(context, &b.table, table_bytes), "sanitizerAlloc(table)"))
    return nullptr;
  if (!check(sanitizerAlloc(context, &b.off, sizeof(table_header)), "sanitizerAlloc(header)"))
    return nullptr;
  table_header off{0, 0, 0, 0};
  if (!check(sanitizerMemcpyHostToDeviceAsync(b.off, &off, sizeof(off), stream),
             "sanitizerMemcpyHostToDeviceAsync(header)"))
    return nullptr;
  return &(m_buffers[context] = b);
}

void tracer::launch_begin(const Sanitizer_LaunchData& launch) {
  const std::string kernel = launch.functionName ? launch.functionName : "";
  CUDALAB_STAGE("launch begin: %s (%s)", kernel.c_str(),
                m_label.empty() ? "not traced" : m_label.c_str());
  context_buffers* b = buffers_for(launch.context, launch.hStream);
  const auto untraced = [&] {  // a line for a launch the tracer could not trace, with why
    traced_launch out;
    out.label = m_label;
    out.kernel = kernel;
    out.error = m_failure;
    write(out);
  };
  if (m_label.empty() || b == nullptr) {
    if (b)
      check(sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, b->off),
            "sanitizerSetLaunchCallbackData");
    if (!m_label.empty()) untraced();
    return;
  }
  if (!m_failure.empty()) {
    check(sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, b->off),
          "sanitizerSetLaunchCallbackData");
    untraced();
    return;
  }
  table_header on{1, table_capacity, 0, 0};
  if (!check(sanitizerMemset(b->table, 0, table_bytes, launch.hStream), "sanitizerMemset") ||
      !check(sanitizerMemcpyHostToDeviceAsync(b->table, &on, sizeof(on), launch.hStream),
             "sanitizerMemcpyHostToDeviceAsync(table)") ||
      !check(
          sanitizerSetLaunchCallbackData(launch.hLaunch, launch.function, launch.hStream, b->table),
          "sanitizerSetLaunchCallbackData")) {
    untraced();
    return;
  }
  m_pending[launch.hLaunch] = {m_label,
                               kernel,
                               launch.module,
                               b->table,
                               {launch.gridDim_x, launch.gridDim_y, launch.gridDim_z},
                               {launch.blockDim_x, launch.blockDim_y, launch.blockDim_z}};
  CUDALAB_STAGE("launch begin: table set, tracing on");
}

void tracer::launch_end(const Sanitizer_LaunchData& launch) {
  const auto found = m_pending.find(launch.hLaunch);
  if (found == m_pending.end()) return;
  const pending_launch p = found->second;
  CUDALAB_STAGE("launch end: %s: reading the table back (waits for the kernel)", p.kernel.c_str());
  m_pending.erase(found);
  traced_launch out;
  out.label = p.label;
  out.kernel = p.kernel;
  out.grid = p.grid;
  out.block = p.block;
  std::vector<unsigned char> host(table_bytes);
  // At launch end the kernel may still run (measured on the H100: a 1M-element launch read back
  // here came out with a quarter of its accesses): wait for its stream before the copy.
  if (!check(sanitizerStreamSynchronize(launch.hStream), "sanitizerStreamSynchronize")) {
    out.error = m_failure;
    write(out);
    return;
  }
  if (!check(sanitizerMemcpyDeviceToHost(host.data(), p.table, table_bytes, launch.hStream),
             "sanitizerMemcpyDeviceToHost(table)")) {
    out.error = m_failure;
    write(out);
    return;
  }
  if (!check(sanitizerGetFunctionPcAndSize(p.module, p.kernel.c_str(), &out.function_pc,
                                           &out.function_size),
             "sanitizerGetFunctionPcAndSize")) {
    out.error = m_failure;
    write(out);
    return;
  }
  const auto cubin = m_cubins.find(p.module);
  if (cubin != m_cubins.end()) out.cubin = cubin->second;
  table_header header;
  std::memcpy(&header, host.data(), sizeof(header));
  out.dropped = header.dropped;
  const auto* slots = reinterpret_cast<const table_slot*>(host.data() + sizeof(table_header));
  for (std::uint32_t i = 0; i < table_capacity; ++i) {
    const table_slot& s = slots[i];
    if (s.pc == 0) continue;
    traced_pc pc;
    // A pc outside the kernel (a device function it calls) keeps its absolute value.
    pc.offset = s.pc >= out.function_pc && s.pc < out.function_pc + out.function_size
                    ? s.pc - out.function_pc
                    : s.pc;
    pc.space = (s.info & info_shared) ? cudalab::model::memory_space::shared
                                      : cudalab::model::memory_space::global;
    pc.kind = (s.info & info_atomic)  ? traced_kind::atomic
              : (s.info & info_store) ? traced_kind::store
                                      : traced_kind::load;
    pc.width = static_cast<unsigned>((s.info >> info_width_shift) & 0xff);
    pc.instructions = s.instructions;
    pc.sectors = s.sectors;
    pc.bytes = s.bytes;
    pc.wavefronts = s.wavefronts;
    pc.ideal = s.ideal;
    out.pcs.push_back(pc);
  }
  write(out);
  CUDALAB_STAGE("launch end: %zu pcs written, %u accesses dropped", out.pcs.size(),
                static_cast<unsigned>(out.dropped));
}

void tracer::write(const traced_launch& launch) {
  const std::string line = format_traced_launch(launch) + "\n";
  if (cudalab::injection::append_line(m_output, line) ==
      cudalab::injection::append_result::cannot_open)
    std::fprintf(stderr, "cudalab tracer: cannot append to %s\n", m_output.c_str());
}

}  // namespace

// The hooks of injection_entry.hpp: launches between the runner's marks are traced.
namespace cudalab::injection {
void start() { ::tracer::get().start(); }
void begin_point(const char* label) {
  CUDALAB_STAGE("program: begin point %s", label ? label : "");
  ::tracer::get().begin_point(label);
}
void end_point() {
  CUDALAB_STAGE("program: end point");
  ::tracer::get().end_point();
}
}  // namespace cudalab::injection
