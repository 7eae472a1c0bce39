// `cudalab device`: every device attribute a learner needs, with free memory and peaks.
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device.hpp"
#include "cudalab/report_options.hpp"
#include "device_json.hpp"

#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

namespace cudalab::tool {
namespace {

std::vector<std::pair<std::string, std::string>> facts_table(const device_facts& f) {
  auto dims = [](const int d[3]) {
    return std::to_string(d[0]) + " x " + std::to_string(d[1]) + " x " + std::to_string(d[2]);
  };
  std::ostringstream bw;
  bw.precision(0);
  bw << std::fixed << f.theoretical_dram_gbps() << " GB/s (2 x " << f.memory_clock_khz / 1000
     << " MHz x " << f.memory_bus_bits << " bit / 8)";
  return {
      {"device", std::to_string(f.index) + ": " + f.name},
      {"compute capability", f.compute_capability() + " (sm_" + std::to_string(f.cc_major) +
                                 std::to_string(f.cc_minor) + ")"},
      {"multiprocessors (SMs)", std::to_string(f.sm_count)},
      {"SM clock (max)", std::to_string(f.sm_clock_khz / 1000) + " MHz"},
      {"memory clock", std::to_string(f.memory_clock_khz / 1000) + " MHz"},
      {"memory bus width", std::to_string(f.memory_bus_bits) + " bit"},
      {"theoretical DRAM bandwidth", bw.str()},
      {"global memory total", format_bytes(static_cast<double>(f.global_memory_total))},
      {"global memory free", format_bytes(static_cast<double>(f.global_memory_free))},
      {"L2 cache", format_bytes(f.l2_bytes)},
      {"shared memory per block",
       format_bytes(static_cast<double>(f.shared_per_block)) + " (opt-in " +
           format_bytes(static_cast<double>(f.shared_per_block_optin)) + ")"},
      {"shared memory per SM", format_bytes(static_cast<double>(f.shared_per_sm))},
      {"constant memory", format_bytes(static_cast<double>(f.constant_memory))},
      {"registers per block", std::to_string(f.registers_per_block)},
      {"registers per SM", std::to_string(f.registers_per_sm)},
      {"warp size", std::to_string(f.warp_size)},
      {"max threads per block", std::to_string(f.max_threads_per_block)},
      {"max threads per SM", std::to_string(f.max_threads_per_sm)},
      {"max block dimensions", dims(f.max_block_dim)},
      {"max grid dimensions", dims(f.max_grid_dim)},
      {"driver / runtime",
       "CUDA " + format_version(f.driver_version) + " / " + format_version(f.runtime_version)},
  };
}

}  // namespace

int device_command(const args& a) {
  po::options_description options("device options");
  std::string device_text = "0", format_text = "table";
  options.add_options()("device,d", po::value(&device_text), "device index (default 0)")(
      "format,f", po::value(&format_text), "table or json");
  po::variables_map vm;
  if (!parse_options(a, "cudalab device [--device N] [--format table|json]", options, {}, vm))
    return exit_ok;
  const output_format format = parse_output_format(format_text);
  if (format == output_format::csv) throw usage_error("--format csv: device prints table or json");
  const int index = parse_int_option("--device", device_text, 0, 1 << 20);
  const device_facts f = query_device(index);
  if (format == output_format::json) {
    write_device_json(std::cout, f);
    return exit_ok;
  }
  for (const auto& [key, value] : facts_table(f))
    std::cout << key << std::string(28 - std::min<std::size_t>(27, key.size()), ' ') << value
              << "\n";
  return exit_ok;
}

}  // namespace cudalab::tool
