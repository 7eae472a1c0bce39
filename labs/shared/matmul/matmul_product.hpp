// What the matrix-product labs (03 and 08) share beside the data: the device buffers of one
// product with their poison and check, the ideal work, and the cuBLAS baseline.
#pragma once

#include "matmul/matmul_kernels.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
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

// A kernel of the matrix-product labs: C = A B for side n on `stream`. `param` is the lab's
// launch parameter (lab 03: threads a block or the tile; lab 08: warp_tiled's configuration).
using matmul_kernel_launcher = matmul::launch_dims (*)(const float* a, const float* b, float* c,
                                                       std::size_t n, unsigned param,
                                                       cudaStream_t stream);

// The runner's view of a product's launch: its grid and block, n^2 threads needed.
launch_shape matmul_launch_shape(const matmul::launch_dims& d, std::size_t n);

// The prepared point of every kernel variant: one launch of `launch` on a device product.
class matmul_kernel_prepared final : public prepared_variant {
 public:
  matmul_kernel_prepared(matmul_kernel_launcher launch, unsigned param, std::size_t n)
      : m_launch(launch), m_param(param), m_product(n) {}
  void upload(cudaStream_t stream) override { m_product.upload(stream); }
  void reset(cudaStream_t stream) override { m_product.reset(stream); }
  void launch(cudaStream_t stream) override {
    m_dims = m_launch(m_product.a(), m_product.b(), m_product.c(), m_product.n(), m_param, stream);
    m_launched = true;
  }
  void download(cudaStream_t stream) override { m_product.download(stream); }
  verify_result verify() override { return m_product.verify(); }
  launch_shape shape() const override {
    return m_launched ? matmul_launch_shape(m_dims, m_product.n()) : launch_shape{};
  }

 private:
  matmul_kernel_launcher m_launch;
  unsigned m_param;
  matmul_device_product m_product;
  matmul::launch_dims m_dims{};
  bool m_launched = false;
};

// Ideal work of every variant: read A and B once, write C once; 2 n^3 flops.
work_counts matmul_ideal(std::size_t n);

// Device bytes of the three padded buffers.
std::size_t matmul_three_buffers(const launch_config& c);

// A baseline's ideal work and its prepare(): the side checked, then Prepared(config), where
// Prepared is a prepared_variant built from the launch_config (cuBLAS, the CPU loop).
template <class Prepared>
void set_matmul_baseline_work(variant& v) {
  v.ideal = [](const launch_config& c) { return matmul_ideal(c.size); };
  v.prepare = [](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    matmul::check_side(c.size);
    return std::make_unique<Prepared>(c);
  };
}

// cublasSgemm, FP32 (CUBLAS_DEFAULT_MATH, TF32 off).
variant make_cublas_variant();

}  // namespace cudalab::labs
