// Lab 03 prepared variants: the kernels on the shared device buffers (matmul_product.hpp, with
// their padding, poison and check) and the CPU baseline.
#include "matmul_variants.hpp"

#include "matmul_data.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/host_timed_variant.hpp"

#include <cstring>
#include <memory>

namespace cudalab::labs {
namespace {

namespace data = matmul_data;

// The CPU side of the comparison: the inputs already in host memory, one core.
class cpu_prepared final : public prepared_variant {
 public:
  explicit cpu_prepared(const launch_config& c)
      : m_n(c.size),
        m_a(data::make_input(0, m_n)),
        m_b(data::make_input(1, m_n)),
        m_c(matmul::padded_elements(m_n)) {}
  void upload(cudaStream_t) override {}
  void reset(cudaStream_t) override { std::memset(m_c.data(), 0xFF, m_c.size() * sizeof(float)); }
  void launch(cudaStream_t) override { data::cpu_product(m_a, m_b, m_c, m_n); }
  void download(cudaStream_t) override {}
  verify_result verify() override { return data::verify_product(m_n, m_c); }
  launch_shape shape() const override { return {}; }

 private:
  std::size_t m_n;
  std::vector<float> m_a, m_b, m_c;
};

}  // namespace

unsigned shape_of(shape_from from, const launch_config& c) {
  switch (from) {
    case shape_from::block:
      return static_cast<unsigned>(c.block);
    case shape_from::sweep:
      return static_cast<unsigned>(c.param);
    case shape_from::fixed:
      break;
  }
  return fixed_tile;
}

variant make_kernel_variant(kernel_spec spec) {
  variant v = new_variant(spec);
  const shape_from from = spec.shape;
  if (from == shape_from::block) {
    v.default_block = 256;
    v.blocks = {32, 1024, 32, false, "the naive product launches 32 x (t/32) blocks"};
  }
  // The tiled kernels' blocks are T x T threads, whatever --block says.
  if (from != shape_from::block)
    v.threads_per_block = [from](const launch_config& c) {
      const unsigned tile = shape_of(from, c);
      return static_cast<int>(tile * tile);
    };
  if (from == shape_from::sweep)
    v.sweep =
        sweep_spec{tile_sweep, {8, 16, 32}, matmul::min_tile, matmul::max_tile, {2, 4, 8, 16, 32}};
  v.device_bytes = matmul_three_buffers;
  v.ideal = [](const launch_config& c) { return matmul_ideal(c.size); };
  v.grid = [from](const launch_config& c) {
    const unsigned shape = shape_of(from, c);
    const matmul::launch_dims d = from == shape_from::block ? matmul::naive_dims(c.size, shape)
                                                            : matmul::tiled_dims(c.size, shape);
    return grid_size{d.grid.x, d.grid.y};
  };
  if (spec.model) {
    const matmul_model::kernel k = *spec.model;
    v.predict = [k, from](const launch_config& c) {
      return matmul_model::predict(k, c.size, shape_of(from, c));
    };
    v.model_cost = [k, from](const launch_config& c) {
      return matmul_model::prediction_cost(k, c.size, shape_of(from, c));
    };
  }
  const matmul_launcher launch = spec.launch;
  v.prepare = [launch, from](const launch_config& c,
                             cudaStream_t) -> std::unique_ptr<prepared_variant> {
    const unsigned shape = shape_of(from, c);
    // The launcher's own checks, before any buffer is made.
    if (from == shape_from::block)
      matmul::naive_dims(c.size, shape);
    else
      matmul::tiled_dims(c.size, shape);
    return std::make_unique<matmul_kernel_prepared>(launch, shape, c.size);
  };
  return v;
}

variant make_cpu_naive_variant() {
  // --block is ignored: one CPU core.
  variant v = new_host_timed_variant(
      "cpu_naive", variant_role::baseline,
      "the triple loop on one CPU core, in float (data already in host memory)");
  // About 0.2 s a run at the default size: one warm-up and three timed runs, not 23.
  v.max_timed_runs = 3;
  // At 4096 the loop would take minutes a run: larger sizes omit the CPU row.
  v.max_size = cpu_naive_max_side;
  v.device_bytes = [](const launch_config&) { return std::size_t{0}; };
  set_matmul_baseline_work<cpu_prepared>(v);
  return v;
}

}  // namespace cudalab::labs
