// Lab 05 prepared variants: inputs, buffers, poisoning, results and checks for every kernel.
//
// Each launch_config gets its own deterministic inputs (reduction_data.hpp). Outputs are
// poisoned before every launch (0xFF bytes: NaN for floats, -1 for integers), except the
// grid-stride accumulator, which the kernel adds into and reset() sets to zero.
#include "reduction_variants.hpp"

#include "reduction_data.hpp"
#include "reduction_instruction_model.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"

#include <algorithm>
#include <memory>
#include <type_traits>

namespace cudalab::labs {
namespace {

namespace data = reduction_data;
using reduction::launch_dims;

void check_shape(const launch_config& c) {
  reduction::check_block(static_cast<unsigned>(c.block));
  reduction::check_size(c.size);
}

launch_shape to_shape(const launch_dims& d, std::size_t needed) {
  launch_shape s;
  s.grid_x = d.grid;
  s.block_x = d.block;
  s.threads_needed = needed;
  return s;
}

class partials_prepared final : public prepared_variant {
 public:
  partials_prepared(const partials_spec& spec, const launch_config& c)
      : m_spec(spec),
        m_n(c.size),
        m_block(static_cast<unsigned>(c.block)),
        m_per_block(spec.two_elements_a_thread ? 2 * std::size_t{m_block} : m_block),
        m_blocks((m_n + m_per_block - 1) / m_per_block),
        m_host_in(data::make_floats(m_n)),
        m_in(m_n),
        m_partial(m_blocks),
        m_out(1) {}

  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override {
    m_partial.fill_bytes(0xFF, stream);
    m_out.fill_bytes(0xFF, stream);
  }
  void launch(cudaStream_t stream) override {
    m_dims = m_spec.launch(m_in.data(), m_partial.data(), m_n, m_block, stream);
    if (m_spec.finish == finish_on::gpu)
      reduction::launch_finish(m_partial.data(), m_out.data(), m_blocks, stream);
  }
  void download(cudaStream_t stream) override {
    m_partial.copy_to_host(m_host_partial, stream);
    m_out.copy_to_host(m_host_out, stream);
  }
  verify_result verify() override {
    if (m_dims.grid != m_blocks)
      return {false, "the launcher used " + std::to_string(m_dims.grid) +
                         " blocks, the variant expects " + std::to_string(m_blocks)};
    verify_result r = data::verify_partials(m_host_in, m_host_partial, m_per_block);
    if (!r.ok || m_spec.finish == finish_on::cpu) return r;
    verify_result total = data::verify_total(m_host_in, m_host_out[0]);
    total.detail = "second pass: " + total.detail;
    return total;
  }
  launch_shape shape() const override {
    const launch_dims d{static_cast<unsigned>(m_blocks), m_block, 0};
    return to_shape(d, (m_n + m_per_block / m_block - 1) / (m_per_block / m_block));
  }

 private:
  partials_spec m_spec;
  std::size_t m_n;
  unsigned m_block;
  std::size_t m_per_block, m_blocks;
  std::vector<float> m_host_in, m_host_partial, m_host_out;
  device_buffer<float> m_in, m_partial, m_out;
  launch_dims m_dims;
};

template <typename T>
class grid_stride_prepared final : public prepared_variant {
 public:
  explicit grid_stride_prepared(const launch_config& c)
      : m_n(c.size), m_block(static_cast<unsigned>(c.block)), m_in(m_n), m_out(1) {
    if constexpr (std::is_same_v<T, float>)
      m_host_in = data::make_floats(m_n);
    else
      m_host_in = data::make_ints(m_n);
  }
  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override { m_out.fill_bytes(0, stream); }  // an accumulator
  void launch(cudaStream_t stream) override {
    reduction::launch_grid_stride(m_in.data(), m_out.data(), m_n, m_block, stream);
  }
  void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
  verify_result verify() override { return data::verify_total(m_host_in, m_host_out[0]); }
  launch_shape shape() const override {
    const unsigned grid = reduction::grid_stride_blocks(m_n, m_block);
    return to_shape({grid, m_block, 0},
                    std::min<std::size_t>(std::size_t{grid} * m_block, (m_n + 3) / 4));
  }

 private:
  std::size_t m_n;
  unsigned m_block;
  std::vector<T> m_host_in, m_host_out;
  device_buffer<T> m_in, m_out;
};

class cub_prepared final : public prepared_variant {
 public:
  explicit cub_prepared(const launch_config& c)
      : m_n(c.size),
        m_host_in(data::make_floats(m_n)),
        m_in(m_n),
        m_out(1),
        m_temp(reduction::cub_sum_temp_bytes(m_n)) {}
  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override { m_out.fill_bytes(0xFF, stream); }
  void launch(cudaStream_t stream) override {
    reduction::launch_cub_sum(m_in.data(), m_out.data(), m_n, m_temp.data(), m_temp.bytes(),
                              stream);
  }
  void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
  verify_result verify() override { return data::verify_total(m_host_in, m_host_out[0]); }
  launch_shape shape() const override { return {}; }  // CUB picks its own grid

 private:
  std::size_t m_n;
  std::vector<float> m_host_in, m_host_out;
  device_buffer<float> m_in, m_out;
  device_buffer<unsigned char> m_temp;
};

// The CPU side of the comparison: the loop the checks use, on one core, with the data already
// in host memory. The variant is timed_on_host, so the runner times launch() with the host's
// steady clock.
class cpu_prepared final : public prepared_variant {
 public:
  explicit cpu_prepared(const launch_config& c) : m_host_in(data::make_floats(c.size)) {}
  void upload(cudaStream_t) override {}
  void reset(cudaStream_t) override { m_sum = -1; }
  void launch(cudaStream_t) override { m_sum = data::reference_sum(m_host_in); }
  void download(cudaStream_t) override {}
  verify_result verify() override { return data::verify_total(m_host_in, m_sum); }
  launch_shape shape() const override { return {}; }

 private:
  std::vector<float> m_host_in;
  double m_sum = -1;
};

// Every tree kernel halves the active threads at each step, from the whole block to one warp.
block_rule tree_block_rule() {
  return {static_cast<int>(reduction::min_block), static_cast<int>(reduction::max_block), 1, true,
          "the tree reductions halve the block at every step, down to one warp"};
}

work_counts read_once(const launch_config& c, bool flops) {
  const double n = static_cast<double>(c.size);
  return {4.0 * n, flops ? n : 0.0};  // 4 bytes an element; the output (a few words) is noise
}

}  // namespace

variant make_partials_variant(partials_spec spec) {
  variant v = new_variant(spec);
  v.default_block = 256;
  v.blocks = tree_block_rule();
  v.device_bytes = [](const launch_config& c) { return c.size * sizeof(float) * 2 + 64; };
  v.ideal = [](const launch_config& c) { return read_once(c, true); };
  if (spec.model) {
    const reduction_model::kernel k = *spec.model;
    v.grid = [k](const launch_config& c) {
      return grid_size{reduction_model::blocks_of(k, c.size, static_cast<unsigned>(c.block))};
    };
    const bool gpu = spec.finish == finish_on::gpu;
    v.predict = [k, gpu](const launch_config& c) {
      const auto block = static_cast<unsigned>(c.block);
      return reduction_model::with_instructions(
          gpu ? reduction_model::predict_two_pass(k, c.size, block)
              : reduction_model::predict(k, c.size, block),
          k, c.size, block, gpu);
    };
    v.model_cost = [k, gpu](const launch_config& c) {
      return reduction_model::prediction_cost(k, c.size, static_cast<unsigned>(c.block), gpu);
    };
  }
  v.prepare = [spec](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    check_shape(c);
    return std::make_unique<partials_prepared>(spec, c);
  };
  return v;
}

variant make_grid_stride_variant(std::string name, bool integers, std::string lesson) {
  variant v = new_variant(std::move(name), variant_role::fixed, std::move(lesson));
  v.default_block = 256;
  v.blocks = tree_block_rule();
  v.grid = [](const launch_config& c) {
    return grid_size{reduction_model::blocks_of(reduction_model::kernel::grid_stride, c.size,
                                                static_cast<unsigned>(c.block))};
  };
  v.device_bytes = [](const launch_config& c) { return c.size * 4 + 64; };
  v.ideal = [integers](const launch_config& c) { return read_once(c, !integers); };
  v.predict = [integers](const launch_config& c) {
    const auto block = static_cast<unsigned>(c.block);
    const auto k = reduction_model::kernel::grid_stride;
    return reduction_model::with_instructions(reduction_model::predict(k, c.size, block), k, c.size,
                                              block, false, integers);
  };
  v.model_cost = [](const launch_config& c) {
    return reduction_model::prediction_cost(reduction_model::kernel::grid_stride, c.size,
                                            static_cast<unsigned>(c.block), false);
  };
  v.prepare = [integers](const launch_config& c,
                         cudaStream_t) -> std::unique_ptr<prepared_variant> {
    check_shape(c);
    if (integers) return std::make_unique<grid_stride_prepared<int>>(c);
    return std::make_unique<grid_stride_prepared<float>>(c);
  };
  return v;
}

variant make_cub_variant() {
  variant v =
      new_variant("cub", variant_role::baseline,
                  "cub::DeviceReduce::Sum: the library reduction, the roof for the kernels above");
  v.library_launch = true;  // --block is ignored: CUB chooses its own launch shape
  v.device_bytes = [](const launch_config& c) { return c.size * 4 + (std::size_t{1} << 20); };
  v.ideal = [](const launch_config& c) { return read_once(c, true); };
  v.prepare = [](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    reduction::check_size(c.size);
    return std::make_unique<cub_prepared>(c);
  };
  return v;
}

variant make_cpu_reference_variant() {
  variant v;
  v.name = "cpu_reference";
  v.role = variant_role::baseline;
  v.lesson =
      "one CPU core summing in double: the time the GPU must beat (data already on each side)";
  // --block is ignored: one CPU core.
  v.has_kernels = false;
  v.timed_on_host = true;
  v.device_bytes = [](const launch_config&) { return std::size_t{0}; };
  v.ideal = [](const launch_config& c) { return read_once(c, true); };
  v.prepare = [](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    reduction::check_size(c.size);
    return std::make_unique<cpu_prepared>(c);
  };
  return v;
}

}  // namespace cudalab::labs
