#include "device_json.hpp"

#include <nlohmann/json.hpp>

namespace cudalab {

void write_device_json(std::ostream& out, const device_facts& f) {
  // One field a line, in the order `cudalab device --format json` prints them.
  const nlohmann::ordered_json doc = {
      {"index", f.index},
      {"name", f.name},
      {"compute_capability", f.compute_capability()},
      {"sm_count", f.sm_count},
      {"sm_clock_khz", f.sm_clock_khz},
      {"memory_clock_khz", f.memory_clock_khz},
      {"memory_bus_bits", f.memory_bus_bits},
      {"theoretical_dram_gbps", f.theoretical_dram_gbps()},
      {"global_memory_total_bytes", f.global_memory_total},
      {"global_memory_free_bytes", f.global_memory_free},
      {"l2_bytes", f.l2_bytes},
      {"shared_per_block_bytes", f.shared_per_block},
      {"shared_per_block_optin_bytes", f.shared_per_block_optin},
      {"shared_per_sm_bytes", f.shared_per_sm},
      {"constant_memory_bytes", f.constant_memory},
      {"registers_per_block", f.registers_per_block},
      {"registers_per_sm", f.registers_per_sm},
      {"warp_size", f.warp_size},
      {"max_threads_per_block", f.max_threads_per_block},
      {"max_threads_per_sm", f.max_threads_per_sm},
      {"max_block_dim", {f.max_block_dim[0], f.max_block_dim[1], f.max_block_dim[2]}},
      {"max_grid_dim", {f.max_grid_dim[0], f.max_grid_dim[1], f.max_grid_dim[2]}},
      {"driver_version", format_version(f.driver_version)},
      {"runtime_version", format_version(f.runtime_version)},
  };
  out << doc.dump(2) << '\n';
}

}  // namespace cudalab
