#include "matmul_product.hpp"

#include "matmul_data.hpp"

#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/check.hpp"

#include <memory>

namespace cudalab::labs {

namespace data = matmul_data;

launch_shape matmul_launch_shape(const matmul::launch_dims& d, std::size_t n) {
  return launch_shape_2d(d, n * n);
}

matmul_device_product::matmul_device_product(std::size_t n)
    : m_n(n),
      m_host_a(data::make_input(0, n)),
      m_host_b(data::make_input(1, n)),
      m_a(m_host_a.size()),
      m_b(m_host_b.size()),
      m_c(matmul::padded_elements(n)) {}

void matmul_device_product::upload(cudaStream_t stream) {
  m_a.copy_from_host(m_host_a, stream);
  m_b.copy_from_host(m_host_b, stream);
}

void matmul_device_product::download(cudaStream_t stream) {
  m_c.copy_to_host(m_host_c, stream);
  CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
}

verify_result matmul_device_product::verify() const { return data::verify_product(m_n, m_host_c); }

work_counts matmul_ideal(std::size_t n) {
  const double side = static_cast<double>(n);
  return {3.0 * 4.0 * side * side, 2.0 * side * side * side};
}

std::size_t matmul_three_buffers(const launch_config& c) {
  return 3 * sizeof(float) * matmul::padded_elements(c.size);
}

namespace {

class cublas_prepared final : public prepared_variant {
 public:
  explicit cublas_prepared(const launch_config& c) : m_product(c.size) {}
  void upload(cudaStream_t stream) override { m_product.upload(stream); }
  void reset(cudaStream_t stream) override { m_product.reset(stream); }
  void launch(cudaStream_t stream) override {
    m_cublas.run(m_product.a(), m_product.b(), m_product.c(), m_product.n(), stream);
  }
  void download(cudaStream_t stream) override { m_product.download(stream); }
  verify_result verify() override { return m_product.verify(); }
  launch_shape shape() const override { return {}; }  // cuBLAS picks its own kernels

 private:
  matmul_device_product m_product;
  matmul::cublas_product m_cublas;
};

}  // namespace

variant make_cublas_variant() {
  variant v = new_variant(
      "cublas", variant_role::baseline,
      "cublasSgemm, FP32 (CUBLAS_DEFAULT_MATH, TF32 off): the roof for the kernels above");
  v.library_launch = true;  // --block is ignored: cuBLAS chooses its own kernels
  v.device_bytes = matmul_three_buffers;
  set_matmul_baseline_work<cublas_prepared>(v);
  return v;
}

}  // namespace cudalab::labs
