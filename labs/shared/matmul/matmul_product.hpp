// What the matrix-product labs (03 and 08) share beside the data: the device buffers of one
// product with their poison and check, the ideal work, and the cuBLAS baseline.
#pragma once

#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

namespace cudalab::labs {

// A, B and C on the device, each matmul::padded_elements(n) floats: the matrix, then a band.
// The inputs' band holds NaN, so a kernel that reads past the matrix gets NaN, not a harmless
// 0; C is poisoned with 0xFF bytes by reset(), so a write past the matrix shows in the band
// (matmul_data.hpp).
class matmul_device_product {
 public:
  explicit matmul_device_product(std::size_t n);
  void upload(cudaStream_t stream);
  void reset(cudaStream_t stream) { m_c.fill_bytes(0xFF, stream); }
  // Copies C to the host and synchronizes the stream.
  void download(cudaStream_t stream);
  verify_result verify() const;
  const float* a() const { return m_a.data(); }
  const float* b() const { return m_b.data(); }
  float* c() { return m_c.data(); }
  std::size_t n() const { return m_n; }

 private:
  std::size_t m_n;
  std::vector<float> m_host_a, m_host_b, m_host_c;
  device_buffer<float> m_a, m_b, m_c;
};

// Ideal work of every variant: read A and B once, write C once; 2 n^3 flops.
work_counts matmul_ideal(std::size_t n);

// Device bytes of the three padded buffers.
std::size_t matmul_three_buffers(const launch_config& c);

// cublasSgemm, FP32 (CUBLAS_DEFAULT_MATH, TF32 off).
variant make_cublas_variant();

}  // namespace cudalab::labs
