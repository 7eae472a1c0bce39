// Device facts a learner needs, and the theoretical peaks derived from them.
#pragma once

#include <cstddef>
#include <string>

namespace cudalab {

struct device_facts {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;      // boost clock
  int memory_clock_khz = 0;  // DRAM clock
  int memory_bus_bits = 0;
  std::size_t global_memory_total = 0;
  std::size_t global_memory_free = 0;
  int l2_bytes = 0;
  std::size_t shared_per_block = 0;        // default (without opt-in)
  std::size_t shared_per_block_optin = 0;  // with cudaFuncSetAttribute
  std::size_t shared_per_sm = 0;
  int registers_per_block = 0;
  int registers_per_sm = 0;
  int warp_size = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_block_dim[3] = {0, 0, 0};
  int max_grid_dim[3] = {0, 0, 0};
  std::size_t constant_memory = 0;
  int driver_version = 0;  // 13000 = 13.0
  int runtime_version = 0;

  // 2 (double data rate) x memory clock x bus width.
  double theoretical_dram_gbps() const;
  std::string compute_capability() const;
};

// Number of CUDA devices; 0 (not an exception) when there is no device or no driver, with
// the reason in `why`.
int cuda_device_count(std::string* why = nullptr);
// Why the runtime found no device, from what cudaGetDeviceCount returned (`status`, a
// cudaError_t), the driver's and the runtime's CUDA versions (0: no driver) and
// CUDA_VISIBLE_DEVICES (null when unset). The kit's own reasons are at most 90 characters, so
// that "cudalab: no CUDA device: " and one fit a 120-column line.
std::string no_device_reason(int status, int driver_version, int runtime_version,
                             const char* cuda_visible_devices);
// Throws no_device_error when `index` is not a usable device.
device_facts query_device(int index);
// Makes `index` current; throws no_device_error or usage_error (index out of range).
void select_device(int index);

// Human-readable byte counts: 1.50 GiB.
std::string format_bytes(double bytes);
std::string format_version(int cuda_version);  // 13000 -> "13.0"

}  // namespace cudalab
