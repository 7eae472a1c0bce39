#include "device_json.hpp"

#include <nlohmann/json.hpp>

namespace cudalab {

void write_device_json(std::ostream& out, const device_facts& f) {
  nlohmann::ordered_json doc;
  doc["index"] = f.index;
  doc["name"] = f.name;
  doc["compute_capability"] = f.compute_capability();
  doc["sm_count"] = f.sm_count;
  doc["sm_clock_khz"] = f.sm_clock_khz;
  doc["memory_clock_khz"] = f.memory_clock_khz;
  doc["memory_bus_bits"] = f.memory_bus_bits;
  doc["theoretical_dram_gbps"] = f.theoretical_dram_gbps();
  doc["global_memory_total_bytes"] = f.global_memory_total;
  doc["global_memory_free_bytes"] = f.global_memory_free;
  doc["l2_bytes"] = f.l2_bytes;
  doc["shared_per_block_bytes"] = f.shared_per_block;
  doc["shared_per_block_optin_bytes"] = f.shared_per_block_optin;
  doc["shared_per_sm_bytes"] = f.shared_per_sm;
  doc["constant_memory_bytes"] = f.constant_memory;
  doc["registers_per_block"] = f.registers_per_block;
  doc["registers_per_sm"] = f.registers_per_sm;
  doc["warp_size"] = f.warp_size;
  doc["max_threads_per_block"] = f.max_threads_per_block;
  doc["max_threads_per_sm"] = f.max_threads_per_sm;
  doc["max_block_dim"] = {f.max_block_dim[0], f.max_block_dim[1], f.max_block_dim[2]};
  doc["max_grid_dim"] = {f.max_grid_dim[0], f.max_grid_dim[1], f.max_grid_dim[2]};
  doc["driver_version"] = format_version(f.driver_version);
  doc["runtime_version"] = format_version(f.runtime_version);
  out << doc.dump(2) << '\n';
}

}  // namespace cudalab
