// The words a learner sees when counters cannot be read: what happened, on one line, and
// what to do about it. Each situation has its own text, so the fix is never a guess.
#include "availability.hpp"

#include <cupti_profiler_target.h>

#include <cstdlib>
#include <optional>
#include <utility>

namespace cudalab {

std::string_view to_string(counter_status s) {
  static constexpr std::pair<counter_status, std::string_view> names[] = {
      {counter_status::available, "available"},
      {counter_status::no_device, "no_device"},
      {counter_status::unsupported_chip, "unsupported_chip"},
      {counter_status::no_permission, "no_permission"},
      {counter_status::profiler_attached, "profiler_attached"},
      {counter_status::error, "error"},
  };
  for (const auto& [status, name] : names)
    if (status == s) return name;
  return "error";
}

counters_unavailable::counters_unavailable(counter_availability why)
    : error("hardware counters unavailable: " + why.reason, why.fix), m_why(std::move(why)) {}

namespace detail {
namespace {

counter_availability make(counter_status status, std::string reason, std::string fix) {
  counter_availability a;
  a.status = status;
  a.reason = std::move(reason);
  a.fix = std::move(fix);
  return a;
}

std::string level_name(int level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
      return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
      return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
      return "supported";
    default:
      return "unknown";
  }
}

counter_availability unsupported_because(const std::string& what, const std::string& fix) {
  return make(counter_status::unsupported_chip,
              "the CUPTI Range Profiler cannot read counters here: " + what, fix);
}

}  // namespace

counter_availability available() {
  return make(counter_status::available, "counters available", {});
}

counter_availability no_metric_on_chip(const std::string& chip) {
  return make(counter_status::unsupported_chip, "none of the metrics asked for exists on " + chip,
              "`cudalab metrics` lists the catalogue and the chips each metric is missing on");
}

counter_availability no_device(const std::string& why) {
  return make(counter_status::no_device, "No CUDA device: " + why + "; counter tests skipped",
              "run on a machine with an NVIDIA GPU and driver (`cudalab doctor` checks); the "
              "model's predictions still print");
}

counter_availability compute_capability_too_old(int device, int major, int minor) {
  return unsupported_because(
      "GPU " + std::to_string(device) + " has compute capability " + std::to_string(major) + "." +
          std::to_string(minor) + ", below the 7.5 (Turing) it needs",
      "run on a Turing (sm_75) or newer GPU; timings and the model's predictions still work");
}

std::optional<counter_availability> unsupported(int device, const device_support& s) {
  if (s.overall == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return std::nullopt;
  struct field {
    const char* name;
    int level;
    const char* fix;
  };
  const field fields[] = {
      {"architecture", s.architecture,
       "run on a Turing (sm_75) or newer GPU; timings and predictions still work"},
      {"sli", s.sli, "disable SLI for this GPU"},
      {"vGpu", s.vgpu,
       "ask the hypervisor administrator to enable profiling for this vGPU, or use a bare-metal "
       "GPU"},
      {"confidentialCompute", s.confidential_compute,
       "turn confidential computing off for this GPU"},
      {"cmp", s.cmp, "CMP (crypto-mining) boards expose no counters: use another GPU"},
      {"wsl", s.wsl, "update the Windows NVIDIA driver, or run on native Linux"},
  };
  const std::string gpu = "GPU " + std::to_string(device) + ": cuptiProfilerDeviceSupported ";
  for (const field& f : fields)
    if (f.level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      return unsupported_because(gpu + f.name + " = " + level_name(f.level), f.fix);
  return unsupported_because(gpu + "isSupported = " + level_name(s.overall),
                             "run `cudalab doctor` and check the driver; counters need a "
                             "supported bare-metal GPU");
}

std::optional<counter_availability> refused_by_test_hook() {
  const char* value = std::getenv("CUDALAB_COUNTERS_REFUSE");
  if (!value || !*value) return std::nullopt;
  const std::string v = value;
  const std::string call = "CUDALAB_COUNTERS_REFUSE=" + v;  // the test hook, named as the call
  if (v == "ERR_NVGPUCTRPERM")
    return classify(cupti_error(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, call));
  if (v == "profiler_attached")
    return classify(cupti_error(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, call));
  return make(counter_status::error, call + ": unknown value",
              "set CUDALAB_COUNTERS_REFUSE to ERR_NVGPUCTRPERM or profiler_attached, or unset it");
}

counter_availability classify(const cupti_error& e) {
  const std::string where = " (" + cupti_result_name(e.code()) + " at " + e.call() + ")";
  switch (e.code()) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return make(
          counter_status::no_permission,
          "GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM)" + where,
          "Run as root, or an admin adds `options nvidia "
          "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/, runs "
          "`update-initramfs -u` and reboots (containers: set on the host, or "
          "`--cap-add=SYS_ADMIN`). See https://developer.nvidia.com/ERR_NVGPUCTRPERM.");
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return make(counter_status::profiler_attached,
                  "External profiler detected (ncu/nsys); in-process counters disabled, NVTX "
                  "ranges still emitted" +
                      where,
                  "read the counters in the external tool's report, or run without ncu, nsys "
                  "or cuda-gdb to collect them in-process (--no-counters skips this check)");
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return unsupported_because("virtualized GPU" + where,
                                 "ask the hypervisor administrator to enable profiling for this "
                                 "vGPU, or use a bare-metal GPU");
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      return unsupported_because("confidential computing is on" + where,
                                 "turn confidential computing off for this GPU");
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      return unsupported_because("CMP (crypto-mining) device" + where, "use another GPU");
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      return unsupported_because("MIG instance" + where,
                                 "profile on a whole GPU (MIG disabled) or a supported MIG "
                                 "configuration");
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
      return unsupported_because("SLI is enabled" + where, "disable SLI for this GPU");
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
      return unsupported_because("WSL" + where,
                                 "update the Windows NVIDIA driver, or run on native Linux");
    default:
      return make(counter_status::error, e.what(),
                  "unexpected CUPTI failure: run `cudalab doctor`; check that libcupti and "
                  "libnvperf_host come from the same CUDA toolkit as the driver supports");
  }
}

}  // namespace detail

std::map<std::string, double> combine_totals(const std::vector<kernel_counters>& kernels) {
  std::map<std::string, double> totals;
  std::map<std::string, int> seen;
  for (const auto& k : kernels)
    for (const auto& [name, value] : k.values) {
      totals[name] += value;
      ++seen[name];
    }
  const auto is_sum = [](const std::string& name) {
    const std::string suffix = ".sum";
    return name.size() > suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  for (auto& [name, value] : totals)
    if (!is_sum(name)) value /= seen[name];
  // Over several kernels the mean of per-kernel ratios is not the run's ratio. Where the
  // counts behind a ratio were collected too, the ratio is taken from their sums.
  const auto value = [&totals](const char* name) -> std::optional<double> {
    const auto it = totals.find(name);
    return it == totals.end() ? std::nullopt : std::optional<double>(it->second);
  };
  const auto threads = value("smsp__thread_inst_executed.sum");
  const auto warps = value("smsp__inst_executed.sum");
  if (auto it = totals.find("smsp__average_thread_inst_executed_per_inst_executed.ratio");
      it != totals.end() && threads && warps)
    it->second = *warps > 0 ? *threads / *warps : 0.0;
  const auto uniform = value("smsp__sass_branch_targets_threads_uniform.sum");
  const auto divergent = value("smsp__sass_branch_targets_threads_divergent.sum");
  if (auto it = totals.find("smsp__sass_average_branch_targets_threads_uniform.pct");
      it != totals.end() && uniform && divergent)
    it->second = *uniform + *divergent > 0 ? 100.0 * *uniform / (*uniform + *divergent) : 0.0;
  return totals;
}

}  // namespace cudalab
