// RAII owner of a device allocation (move-only: two owners would free it twice).
#pragma once

#include "cudalab/check.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace cudalab {

template <typename T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : m_count(count) {
    if (count > 0)
      CUDALAB_CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&m_data), count * sizeof(T)));
  }
  ~device_buffer() {
    if (m_data) CUDALAB_CHECK_CUDA_NOEXCEPT(cudaFree(m_data));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept
      : m_data(std::exchange(other.m_data, nullptr)), m_count(std::exchange(other.m_count, 0)) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      device_buffer gone(std::move(*this));
      m_data = std::exchange(other.m_data, nullptr);
      m_count = std::exchange(other.m_count, 0);
    }
    return *this;
  }

  T* data() noexcept { return m_data; }
  const T* data() const noexcept { return m_data; }
  std::size_t size() const noexcept { return m_count; }
  std::size_t bytes() const noexcept { return m_count * sizeof(T); }

  void copy_from_host(const std::vector<T>& host, cudaStream_t stream) {
    copy_from_host(host.data(), host.size(), stream);
  }
  void copy_from_host(const T* host, std::size_t count, cudaStream_t stream) {
    CUDALAB_CHECK_CUDA(
        cudaMemcpyAsync(m_data, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void copy_to_host(std::vector<T>& host, cudaStream_t stream) const {
    host.resize(m_count);
    CUDALAB_CHECK_CUDA(
        cudaMemcpyAsync(host.data(), m_data, bytes(), cudaMemcpyDeviceToHost, stream));
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  void copy_from_device(const device_buffer& other, cudaStream_t stream) {
    CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_data, other.m_data, std::min(bytes(), other.bytes()),
                                       cudaMemcpyDeviceToDevice, stream));
  }
  // Fills every byte with `byte`: 0xFF poisons floats as NaN, so an unwritten output shows.
  void fill_bytes(int byte, cudaStream_t stream) {
    CUDALAB_CHECK_CUDA(cudaMemsetAsync(m_data, byte, bytes(), stream));
  }

 private:
  T* m_data = nullptr;
  std::size_t m_count = 0;
};

}  // namespace cudalab
