// Lab 02 kernel variants: x and the coefficients uploaded once, the output poisoned (0xFF: NaN)
// before every launch, checked against the double reference.
#include "memory_variants.hpp"

#include "memory_data.hpp"
#include "memory_lab.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/device_buffer.hpp"

#include <memory>

namespace cudalab::labs {
namespace {

namespace mem = cudalab::memory;
using memory_model::kernel;

class kernel_prepared final : public prepared_variant {
 public:
  kernel_prepared(memory_launcher launch, memory_output output, const launch_config& c)
      : m_launch(launch),
        m_output(output),
        m_n(c.size),
        m_block(static_cast<unsigned>(c.block)),
        m_x(memory_data::make_x(c.size)),
        m_table(memory_data::coefficient_table()),
        m_device_x(c.size),
        m_device_out(c.size),
        m_device_coeffs(m_table.size()) {}
  void upload(cudaStream_t stream) override {
    m_device_x.copy_from_host(m_x, stream);
    m_device_coeffs.copy_from_host(m_table, stream);
    mem::upload_constant_coefficients(m_table.data(), stream);
  }
  void reset(cudaStream_t stream) override { m_device_out.fill_bytes(0xFF, stream); }
  void launch(cudaStream_t stream) override {
    m_dims = m_launch(m_device_x.data(), m_device_coeffs.data(), m_device_out.data(), m_n, m_block,
                      stream);
    m_launched = true;
  }
  void download(cudaStream_t stream) override { m_device_out.copy_to_host(m_out, stream); }
  verify_result verify() override { return memory_data::verify(m_output, m_table, m_x, m_out); }
  launch_shape shape() const override {
    if (!m_launched) return {};
    launch_shape s;
    s.grid_x = m_dims.grid;
    s.block_x = m_dims.block;
    s.threads_needed = m_n;
    return s;
  }

 private:
  memory_launcher m_launch;
  memory_output m_output;
  std::size_t m_n;
  unsigned m_block;
  std::vector<float> m_x, m_table, m_out;
  device_buffer<float> m_device_x, m_device_out, m_device_coeffs;
  mem::launch_dims m_dims;
  bool m_launched = false;
};

mem::launch_dims run_coeffs_global(const float* x, const float* coeffs, float* out, std::size_t n,
                                   unsigned block, cudaStream_t stream) {
  return mem::launch_coeffs_global(x, coeffs, out, n, block, stream);
}
mem::launch_dims run_coeffs_constant(const float* x, const float*, float* out, std::size_t n,
                                     unsigned block, cudaStream_t stream) {
  return mem::launch_coeffs_constant(x, out, n, block, stream);
}
mem::launch_dims run_constant_divergent(const float* x, const float*, float* out, std::size_t n,
                                        unsigned block, cudaStream_t stream) {
  return mem::launch_constant_divergent(x, out, n, block, stream);
}
mem::launch_dims run_coeffs_shared(const float* x, const float* coeffs, float* out, std::size_t n,
                                   unsigned block, cudaStream_t stream) {
  return mem::launch_coeffs_shared(x, coeffs, out, n, block, stream);
}
mem::launch_dims run_local_spill(const float* x, const float*, float* out, std::size_t n,
                                 unsigned block, cudaStream_t stream) {
  return mem::launch_local_spill(x, out, n, spill_step, block, stream);
}
mem::launch_dims run_registers(const float* x, const float*, float* out, std::size_t n,
                               unsigned block, cudaStream_t stream) {
  return mem::launch_registers(x, out, n, spill_step, block, stream);
}

}  // namespace

memory_launcher launcher_of(kernel k) {
  switch (k) {
    case kernel::coeffs_global:
      return run_coeffs_global;
    case kernel::coeffs_constant:
      return run_coeffs_constant;
    case kernel::constant_divergent:
      return run_constant_divergent;
    case kernel::coeffs_shared:
      return run_coeffs_shared;
    case kernel::local_spill:
      return run_local_spill;
    case kernel::registers:
      break;
  }
  return run_registers;
}

variant make_memory_kernel_variant(memory_kernel_spec spec) {
  variant v = new_variant(spec);
  v.blocks = spec.blocks;
  v.device_bytes = [](const launch_config& c) {
    return 2 * c.size * sizeof(float) + mem::constant_table_floats * sizeof(float);
  };
  v.grid = [](const launch_config& c) {
    return grid_size{(c.size + static_cast<std::size_t>(c.block) - 1) /
                     static_cast<std::size_t>(c.block)};
  };
  // x read once and out written once: the coefficients are a few hundred bytes.
  v.ideal = [](const launch_config& c) {
    return work_counts{8.0 * static_cast<double>(c.size),
                       2.0 * mem::poly_terms * static_cast<double>(c.size)};
  };
  if (spec.model) {
    const kernel k = *spec.model;
    v.predict = [k](const launch_config& c) {
      return memory_model::predict(k, c.size, static_cast<unsigned>(c.block), spill_step);
    };
  }
  const memory_launcher launch = spec.launch;
  const memory_output output = spec.output;
  v.prepare = [launch, output](const launch_config& c,
                               cudaStream_t) -> std::unique_ptr<prepared_variant> {
    mem::one_thread_each(c.size, static_cast<unsigned>(c.block));  // its checks, before buffers
    return std::make_unique<kernel_prepared>(launch, output, c);
  };
  return v;
}

}  // namespace cudalab::labs
