// Writing a traced launch as one line, and the label of a runner's point. Apart from the
// reading side (trace_record.cpp) because the injection library compiles this file alone: it
// must not depend on the rest of the instrumentation library.
#include "cudalab/trace/trace_record.hpp"

#include <nlohmann/json.hpp>

namespace cudalab::trace {
namespace {

const char* space_name(model::memory_space s) {
  return s == model::memory_space::shared ? "shared" : "global";
}

const char* kind_name(traced_kind k) {
  if (k == traced_kind::store) return "store";
  return k == traced_kind::atomic ? "atomic" : "load";
}

}  // namespace

std::string trace_point_label(const std::string& variant, std::size_t size, int block, long param) {
  return variant + "|" + std::to_string(size) + "|" + std::to_string(block) + "|" +
         std::to_string(param);
}

std::string format_traced_launch(const traced_launch& launch) {
  nlohmann::json j;
  j["label"] = launch.label;
  j["kernel"] = launch.kernel;
  if (launch.shape_known()) {
    j["grid"] = launch.grid;
    j["block"] = launch.block;
  }
  if (!launch.nvtx.empty()) j["nvtx"] = launch.nvtx;
  if (launch.nanoseconds) j["nanoseconds"] = launch.nanoseconds;
  if (!launch.range_counts.empty()) j["range_counts"] = launch.range_counts;
  if (!launch.error.empty()) {
    j["error"] = launch.error;
    return j.dump();
  }
  j["cubin"] = launch.cubin;
  j["function_pc"] = launch.function_pc;
  j["function_size"] = launch.function_size;
  j["dropped"] = launch.dropped;
  if (launch.launches != 1) j["launches"] = launch.launches;
  nlohmann::json pcs = nlohmann::json::array();
  for (const traced_pc& p : launch.pcs)
    pcs.push_back({{"offset", p.offset},
                   {"space", space_name(p.space)},
                   {"kind", kind_name(p.kind)},
                   {"width", p.width},
                   {"instructions", p.instructions},
                   {"sectors", p.sectors},
                   {"bytes", p.bytes},
                   {"wavefronts", p.wavefronts},
                   {"ideal", p.ideal}});
  j["pcs"] = pcs;
  return j.dump();
}

}  // namespace cudalab::trace
