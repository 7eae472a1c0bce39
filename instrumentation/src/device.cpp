#include "cudalab/device.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cudalab {

double device_facts::theoretical_dram_gbps() const {
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

std::string device_facts::compute_capability() const {
  return std::to_string(cc_major) + "." + std::to_string(cc_minor);
}

std::string no_device_reason(int status, int driver_version, int runtime_version,
                             const char* cuda_visible_devices) {
  const auto code = static_cast<cudaError_t>(status);
  // The runtime says "insufficient driver" both where the driver is too old and where there
  // is none at all: say which.
  if (code == cudaErrorInsufficientDriver && driver_version == 0)
    return "no NVIDIA driver is installed (libcuda.so.1 not found)";
  if (code == cudaErrorInsufficientDriver)
    return "the driver runs CUDA " + format_version(driver_version) + ", this build needs " +
           format_version(runtime_version) + ": update the driver";
  if (code == cudaErrorNoDevice && cuda_visible_devices)
    return "CUDA_VISIBLE_DEVICES='" + shown(cuda_visible_devices, 16) +
           "' leaves no CUDA device visible";
  return std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code);
}

int cuda_device_count(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    if (!why) return 0;
    // Either call fails without a driver; the version stays 0, which is the answer.
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    cudaGetLastError();
    *why = no_device_reason(status, driver, runtime, std::getenv("CUDA_VISIBLE_DEVICES"));
    return 0;
  }
  if (count == 0 && why) *why = "the driver reports no CUDA device";
  return count;
}

void select_device(int index) {
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) throw no_device_error(why);
  if (index < 0 || index >= count)
    throw usage_error("--device " + std::to_string(index) + " is out of range: this machine has " +
                      std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") + " (0.." +
                      std::to_string(count - 1) + ")");
  CUDALAB_CHECK_CUDA(cudaSetDevice(index));
}

namespace {
int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  CUDALAB_CHECK_CUDA(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}
}  // namespace

device_facts query_device(int index) {
  select_device(index);
  cudaDeviceProp prop{};
  CUDALAB_CHECK_CUDA(cudaGetDeviceProperties(&prop, index));
  device_facts f;
  f.index = index;
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  // CUDA 13 removed clockRate/memoryClockRate from cudaDeviceProp: ask the attributes.
  f.sm_clock_khz = attribute(cudaDevAttrClockRate, index);
  f.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, index);
  f.memory_bus_bits = prop.memoryBusWidth;
  CUDALAB_CHECK_CUDA(cudaMemGetInfo(&f.global_memory_free, &f.global_memory_total));
  f.l2_bytes = prop.l2CacheSize;
  f.shared_per_block = prop.sharedMemPerBlock;
  f.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  f.shared_per_sm = prop.sharedMemPerMultiprocessor;
  f.registers_per_block = prop.regsPerBlock;
  f.registers_per_sm = prop.regsPerMultiprocessor;
  f.warp_size = prop.warpSize;
  f.max_threads_per_block = prop.maxThreadsPerBlock;
  f.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  for (int i = 0; i < 3; ++i) {
    f.max_block_dim[i] = prop.maxThreadsDim[i];
    f.max_grid_dim[i] = prop.maxGridSize[i];
  }
  f.constant_memory = prop.totalConstMem;
  CUDALAB_CHECK_CUDA(cudaDriverGetVersion(&f.driver_version));
  CUDALAB_CHECK_CUDA(cudaRuntimeGetVersion(&f.runtime_version));
  return f;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

std::string format_version(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace cudalab
