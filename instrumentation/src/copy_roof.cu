#include "cudalab/copy_roof.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/timing.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>
#include <utility>

namespace cudalab {
namespace {

// A grid-stride copy of 16-byte words, `in_flight` loads issued before their stores: with
// __restrict__ the compiler may keep them all waiting at once, which is what hides DRAM's
// latency (a plain copy loop issues a load, waits, stores, and loads again).
template <int in_flight>
__global__ void copy_words_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                  std::size_t count) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  for (; i + (in_flight - 1) * stride < count; i += in_flight * stride) {
    uint4 words[in_flight];
#pragma unroll
    for (int k = 0; k < in_flight; ++k) words[k] = src[i + k * stride];
#pragma unroll
    for (int k = 0; k < in_flight; ++k) dst[i + k * stride] = words[k];
  }
  for (; i < count; i += stride) dst[i] = src[i];  // the last partial round
}

// One 16-byte word a thread over a grid that covers the buffer: no loop, every load in flight
// at once across the resident blocks. `streaming`: loads and stores marked evict-first
// (__ldcs/__stcs), since each word is touched once. On an H200 this shape moves as much as
// cudaMemcpy, where the grid-stride kernel above stays below it (docs/benchmarks.md, lab 06's
// copy roof).
template <bool streaming>
__global__ void copy_word_a_thread_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                          std::size_t count) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  if (streaming)
    __stcs(dst + i, __ldcs(src + i));
  else
    dst[i] = src[i];
}

constexpr int copy_block = 256;

double gbps_of(std::size_t bytes, const timing_stats& t) {
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
}

}  // namespace

std::string copy_roof::describe() const {
  char text[128];
  if (kernel_gbps > 0)
    std::snprintf(text, sizeof text, "copy roof %.0f GB/s (%s; cudaMemcpy %.0f, copy kernel %.0f)",
                  gbps(), source().c_str(), memcpy_gbps, kernel_gbps);
  else
    std::snprintf(text, sizeof text, "copy roof %.0f GB/s (cudaMemcpy device to device)", gbps());
  return text;
}

copy_roof measured_copy_roof(int device, bool with_kernel) {
  static std::map<std::pair<int, bool>, copy_roof> measured;
  if (auto it = measured.find({device, with_kernel}); it != measured.end()) return it->second;
  select_device(device);
  // 256 MiB each way: far beyond any L2 (50 MB on the H100), so this is DRAM bandwidth.
  const std::size_t bytes = std::size_t{256} << 20;
  device_buffer<uint4> src(bytes / sizeof(uint4)), dst(bytes / sizeof(uint4));
  cuda_stream stream;
  src.fill_bytes(0x5a, stream.get());
  copy_roof roof;
  roof.memcpy_gbps =
      gbps_of(bytes, time_on_stream(stream.get(), 3, 20, [&] {
                CUDALAB_CHECK_CUDA(cudaMemcpyAsync(dst.data(), src.data(), bytes,
                                                   cudaMemcpyDeviceToDevice, stream.get()));
              }));
  if (with_kernel) {
    int sms = 0;
    CUDALAB_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    // The best of a few shapes: which one wins differs between cards.
    const auto time_kernel = [&](auto kernel, unsigned blocks) {
      return gbps_of(bytes, time_on_stream(stream.get(), 3, 20, [&] {
                       kernel<<<blocks, copy_block, 0, stream.get()>>>(src.data(), dst.data(),
                                                                       src.size());
                       CUDALAB_CHECK_LAUNCH();
                     }));
    };
    for (int blocks_per_sm : {4, 8}) {
      const unsigned blocks = static_cast<unsigned>(blocks_per_sm * (sms > 0 ? sms : 1));
      roof.kernel_gbps = std::max(roof.kernel_gbps, time_kernel(copy_words_kernel<4>, blocks));
      roof.kernel_gbps = std::max(roof.kernel_gbps, time_kernel(copy_words_kernel<8>, blocks));
    }
    const auto covering = static_cast<unsigned>((src.size() + copy_block - 1) / copy_block);
    roof.kernel_gbps =
        std::max(roof.kernel_gbps, time_kernel(copy_word_a_thread_kernel<false>, covering));
    roof.kernel_gbps =
        std::max(roof.kernel_gbps, time_kernel(copy_word_a_thread_kernel<true>, covering));
  }
  measured[{device, with_kernel}] = roof;
  return roof;
}

}  // namespace cudalab
