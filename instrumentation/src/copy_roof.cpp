#include "cudalab/copy_roof.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/timing.hpp"

#include <cstddef>
#include <map>

namespace cudalab {

double measured_copy_gbps(int device) {
  static std::map<int, double> measured;
  if (auto it = measured.find(device); it != measured.end()) return it->second;
  select_device(device);
  // 256 MiB each way: far beyond any L2 (50 MB on the H100), so this is DRAM bandwidth.
  const std::size_t bytes = std::size_t{256} << 20;
  device_buffer<unsigned char> src(bytes), dst(bytes);
  cuda_stream stream;
  src.fill_bytes(0x5a, stream.get());
  const timing_stats t = time_on_stream(stream.get(), 3, 20, [&] {
    CUDALAB_CHECK_CUDA(
        cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
  });
  const double gbps = 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
  measured[device] = gbps;
  return gbps;
}

}  // namespace cudalab
