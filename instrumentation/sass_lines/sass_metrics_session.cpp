#include "sass_metrics_session.hpp"

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <tuple>

namespace cudalab::sass_lines {
namespace {

void check(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown";
  throw cupti_failure(std::string(call) + " failed: " + text);
}

constexpr const char* prefix = "smsp__sass_";

// A CUPTI parameter struct: every field zero, structSize set (what CUPTI checks first).
template <typename T>
T params(std::size_t struct_size) {
  T p{};
  p.structSize = struct_size;
  return p;
}

}  // namespace

const std::vector<std::string>& session_metrics() {
  // Requests are the warp-level global instructions; the op_* split tells loads from stores,
  // and a pc with sectors but neither is an atomic or a reduction (left out, as the tracer does).
  static const std::vector<std::string> names = {
      "smsp__sass_inst_executed_op_global_ld",
      "smsp__sass_inst_executed_op_global_st",
      "smsp__sass_sectors_mem_global",
      // cp.async (LDGSTS) is not an op_global_ld instruction: its own count (the chip's SASS
      // metrics have no sectors of their own for it; sectors_mem_global is asked at its pc).
      "smsp__sass_inst_executed_op_ldgsts",
      "smsp__sass_inst_executed_op_shared_ld",
      "smsp__sass_inst_executed_op_shared_st",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
  };
  return names;
}

sass_metrics_session::sass_metrics_session(CUcontext context, int device)
    : m_context(context), m_device(device) {
  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  std::vector<CUpti_SassMetrics_Config> configs;
  for (const std::string& name : session_metrics()) {
    auto properties = params<CUpti_SassMetrics_GetProperties_Params>(
        CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
    properties.pChipName = chip.pChipName;
    properties.pMetricName = name.c_str();
    check(cuptiSassMetricsGetProperties(&properties),
          ("cuptiSassMetricsGetProperties(" + name + ")").c_str());
    configs.push_back({properties.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
    m_names[properties.metric.metricId] = name.substr(std::string(prefix).size());
  }
  auto config =
      params<CUpti_SassMetricsSetConfig_Params>(CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
  config.numOfMetricConfig = configs.size();
  config.pConfigs = configs.data();
  config.deviceIndex = static_cast<std::uint32_t>(device);
  check(cuptiSassMetricsSetConfig(&config), "cuptiSassMetricsSetConfig");
  m_configured = true;
  auto enable = params<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
  enable.ctx = context;
  enable.enableLazyPatching = 1;
  check(cuptiSassMetricsEnable(&enable), "cuptiSassMetricsEnable");
  m_enabled = true;
}

sass_metrics_session::~sass_metrics_session() {
  try {
    if (m_enabled) {
      auto disable =
          params<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
      disable.ctx = m_context;
      check(cuptiSassMetricsDisable(&disable), "cuptiSassMetricsDisable");
    }
    if (m_configured) {
      auto unset = params<CUpti_SassMetricsUnsetConfig_Params>(
          CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
      unset.deviceIndex = static_cast<std::uint32_t>(m_device);
      check(cuptiSassMetricsUnsetConfig(&unset), "cuptiSassMetricsUnsetConfig");
    }
  } catch (const cupti_failure& e) {
    std::fprintf(stderr, "cudalab sass lines: %s\n", e.what());
  }
}

std::vector<sass_pc> sass_metrics_session::flush() {
  auto properties = params<CUpti_SassMetricsGetDataProperties_Params>(
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
  properties.ctx = m_context;
  check(cuptiSassMetricsGetDataProperties(&properties), "cuptiSassMetricsGetDataProperties");
  const std::size_t records = properties.numOfPatchedInstructionRecords;
  const std::size_t instances = properties.numOfInstances;
  if (records == 0 || instances == 0) return {};
  std::vector<CUpti_SassMetrics_Data> data(records);
  std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values(
      records, std::vector<CUpti_SassMetrics_InstanceValue>(instances));
  for (std::size_t i = 0; i < records; ++i) {
    data[i] = CUpti_SassMetrics_Data{};
    data[i].structSize = sizeof(CUpti_SassMetrics_Data);
    data[i].pInstanceValues = values[i].data();
  }
  auto flush =
      params<CUpti_SassMetricsFlushData_Params>(CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
  flush.ctx = m_context;
  flush.numOfPatchedInstructionRecords = records;
  flush.numOfInstances = instances;
  flush.pMetricsData = data.data();
  check(cuptiSassMetricsFlushData(&flush), "cuptiSassMetricsFlushData");
  // A record is one metric of one instruction: merge them per (module, function, pc). CUPTI
  // allocates each record's function name and leaves it to the caller to free.
  std::map<std::tuple<std::uint32_t, std::string, std::uint32_t>, sass_pc> merged;
  for (std::size_t i = 0; i < records; ++i) {
    const std::unique_ptr<char, void (*)(void*)> name(const_cast<char*>(data[i].functionName),
                                                      std::free);
    const std::string function = name ? name.get() : "";
    sass_pc& pc = merged[{data[i].cubinCrc, function, data[i].pcOffset}];
    pc.cubin_crc = data[i].cubinCrc;
    pc.function = function;
    pc.offset = data[i].pcOffset;
    for (std::size_t k = 0; k < instances; ++k) {
      const auto found = m_names.find(values[i][k].metricId);
      if (found != m_names.end()) pc.values[found->second] += values[i][k].value;
    }
  }
  std::vector<sass_pc> out;
  for (auto& [key, pc] : merged) out.push_back(std::move(pc));
  return out;
}

}  // namespace cudalab::sass_lines
