// Lab 08 prepared variants (regtile_variants.hpp).
#include "regtile_variants.hpp"

#include "matmul/matmul_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"

#include <memory>

namespace cudalab::labs {
namespace {

// pad_to_64: the padded copies live beside the shared buffers. Without copies in the timed
// launch, reset() pads A and B (untimed, unprofiled) and download() copies C out.
class pad_prepared final : public prepared_variant {
 public:
  pad_prepared(bool with_copies, const launch_config& c)
      : m_with_copies(with_copies),
        m_product(c.size),
        m_a(padded(c.size)),
        m_b(padded(c.size)),
        m_c(padded(c.size)) {}
  // Without its copies timed, the padding is done once, with the upload: the product reads the
  // padded inputs and never writes them, so no launch needs them padded again, and the kernel
  // phase (the NVTX range Nsight Compute is filtered to) holds the product's launches alone.
  void upload(cudaStream_t stream) override {
    m_product.upload(stream);
    if (!m_with_copies) pad(stream);
  }
  void reset(cudaStream_t stream) override {
    m_product.reset(stream);
    m_c.fill_bytes(0xFF, stream);
  }
  void launch(cudaStream_t stream) override {
    if (m_with_copies) pad(stream);
    m_dims = matmul::launch_pad_product(m_a.data(), m_b.data(), m_c.data(), m_product.n(), stream);
    if (m_with_copies) unpad(stream);
    m_launched = true;
  }
  void download(cudaStream_t stream) override {
    if (!m_with_copies) unpad(stream);
    m_product.download(stream);
  }
  verify_result verify() override { return m_product.verify(); }
  launch_shape shape() const override {
    return m_launched ? matmul_launch_shape(m_dims, m_product.n()) : launch_shape{};
  }

 private:
  static std::size_t padded(std::size_t n) {
    const std::size_t side = matmul::padded_side(n);
    return side * side;
  }
  void pad(cudaStream_t stream) {
    matmul::launch_pad_inputs(m_product.a(), m_product.b(), m_a.data(), m_b.data(), m_product.n(),
                              stream);
  }
  void unpad(cudaStream_t stream) {
    matmul::launch_unpad_output(m_c.data(), m_product.c(), m_product.n(), stream);
  }

  bool m_with_copies;
  matmul_device_product m_product;
  device_buffer<float> m_a, m_b, m_c;
  matmul::launch_dims m_dims;
  bool m_launched = false;
};

// The kernel's launch parameter: the point's sweep value (its sweep's default when none was
// asked for), 0 for a kernel without a sweep, or the configuration chosen for the side.
unsigned param_of(const launch_config& c, unsigned (*config_for_side)(std::size_t)) {
  return config_for_side ? config_for_side(c.size) : static_cast<unsigned>(c.param);
}

}  // namespace

sweep_spec warp_tiled_config_sweep() {
  return sweep_spec{config_sweep,
                    {static_cast<long>(matmul::warp_tiled_default_config)},
                    0,
                    static_cast<long>(matmul::warp_tiled_configs) - 1};
}

variant make_regtile_variant(regtile_spec spec) {
  variant v = new_variant(spec);
  if (spec.config_sweep) v.sweep = warp_tiled_config_sweep();
  const auto by_side = spec.config_for_side;
  v.device_bytes = matmul_three_buffers;
  v.ideal = [](const launch_config& c) { return matmul_ideal(c.size); };
  if (spec.model) {
    const regtile_model::kernel k = *spec.model;
    // Each kernel's block is its tiling's, whatever --block says.
    v.threads_per_block = [k, by_side](const launch_config& c) {
      return static_cast<int>(regtile_model::threads_per_block(k, param_of(c, by_side)));
    };
    v.predict = [k, by_side](const launch_config& c) {
      return regtile_model::predict(k, c.size, param_of(c, by_side));
    };
    v.model_cost = [k, by_side](const launch_config& c) {
      return regtile_model::prediction_cost(k, c.size, param_of(c, by_side));
    };
  }
  if (spec.resources)
    v.resources = [query = spec.resources, by_side](const launch_config& c) {
      launch_config chosen = c;
      chosen.param = param_of(c, by_side);
      return query(chosen);
    };
  const regtile_launcher launch = spec.launch;
  const std::optional<sweep_spec> sweep = v.sweep;
  v.prepare = [launch, sweep, by_side](const launch_config& c,
                                       cudaStream_t) -> std::unique_ptr<prepared_variant> {
    matmul::check_side(c.size);
    if (sweep && !sweep->accepts(c.param))
      throw usage_error(sweep->name + " " + std::to_string(c.param) + ": the built values are " +
                        sweep->range_text());
    return std::make_unique<matmul_kernel_prepared>(launch, param_of(c, by_side), c.size);
  };
  return v;
}

variant make_pad_to_64_variant(bool with_copies) {
  variant v;
  v.name = with_copies ? "pad_to_64_copies" : "pad_to_64";
  v.role = variant_role::naive;
  v.lesson =
      with_copies
          ? "pad_to_64 timed with its copies: pad A and B, multiply, copy C out"
          : "A, B padded to a multiple of 64 (copies untimed), 4 outputs a thread, no guards";
  v.device_bytes = [](const launch_config& c) {
    const std::size_t side = matmul::padded_side(c.size);
    return matmul_three_buffers(c) + 3 * sizeof(float) * side * side;
  };
  v.ideal = [](const launch_config& c) { return matmul_ideal(c.size); };
  const regtile_model::kernel k =
      with_copies ? regtile_model::kernel::pad_with_copies : regtile_model::kernel::pad_product;
  v.threads_per_block = [k](const launch_config&) {
    return static_cast<int>(regtile_model::threads_per_block(k));
  };
  v.predict = [k](const launch_config& c) { return regtile_model::predict(k, c.size); };
  v.model_cost = [k](const launch_config& c) { return regtile_model::prediction_cost(k, c.size); };
  v.resources = [](const launch_config&) { return matmul::pad_to_64_resources(); };
  v.prepare = [with_copies](const launch_config& c,
                            cudaStream_t) -> std::unique_ptr<prepared_variant> {
    matmul::check_side(c.size);
    return std::make_unique<pad_prepared>(with_copies, c);
  };
  return v;
}

}  // namespace cudalab::labs
