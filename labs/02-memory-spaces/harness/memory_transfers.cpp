// Lab 02's copies and timing experiments: variants whose measured work is a copy, a pipeline of
// copies and kernels, a timer or an allocation. They launch no kernel the counters should read
// (has_kernels false) except the two timers, whose kernel is coeffs_global.
#include "memory_data.hpp"
#include "memory_host_buffer.hpp"
#include "memory_lab.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"
#include "memory/memory_kernels.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/host_timed_variant.hpp"
#include "cudalab/stream.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

namespace cudalab::labs {
namespace {

namespace mem = cudalab::memory;

// One buffer each way of the size: the device's and the host's.
std::size_t one_device_buffer(const launch_config& c) { return c.size * sizeof(float); }

class copy_prepared final : public prepared_variant {
 public:
  copy_prepared(host_memory host, copy_direction direction, const launch_config& c)
      : m_direction(direction),
        m_source(memory_data::make_x(c.size)),
        m_host(c.size, host),
        m_device(c.size) {}
  void upload(cudaStream_t stream) override {
    if (m_direction == copy_direction::h2d) {
      std::memcpy(m_host.data(), m_source.data(), m_host.bytes());
    } else {
      m_device.copy_from_host(m_source, stream);
    }
  }
  // The destination poisoned, so a copy that moved nothing shows.
  void reset(cudaStream_t stream) override {
    if (m_direction == copy_direction::h2d) {
      m_device.fill_bytes(0xFF, stream);
    } else {
      CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
      std::memset(m_host.data(), 0xFF, m_host.bytes());
    }
  }
  void launch(cudaStream_t stream) override {
    if (m_direction == copy_direction::h2d)
      CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_device.data(), m_host.data(), m_host.bytes(),
                                         cudaMemcpyHostToDevice, stream));
    else
      CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_host.data(), m_device.data(), m_host.bytes(),
                                         cudaMemcpyDeviceToHost, stream));
  }
  void download(cudaStream_t stream) override {
    if (m_direction == copy_direction::h2d)
      m_device.copy_to_host(m_result, stream);
    else {
      CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
      m_result = m_host.to_vector();
    }
  }
  verify_result verify() override {
    const bool same = m_result.size() == m_source.size() &&
                      std::memcmp(m_result.data(), m_source.data(), m_host.bytes()) == 0;
    return {same, same ? "every byte copied" : "the copy differs from its source"};
  }
  launch_shape shape() const override { return {}; }

 private:
  copy_direction m_direction;
  std::vector<float> m_source, m_result;
  host_buffer m_host;
  device_buffer<float> m_device;
};

// x up, coeffs_global, out down, cut into `streams` chunks, chunk s on stream s. The runner's
// stream forks to the chunk streams and joins them again, so its events time the whole
// pipeline.
class pipeline_prepared final : public prepared_variant {
 public:
  pipeline_prepared(unsigned streams, const launch_config& c)
      : m_n(c.size),
        m_block(static_cast<unsigned>(c.block)),
        m_x(memory_data::make_x(c.size)),
        m_table(memory_data::coefficient_table()),
        m_host_in(c.size, host_memory::pinned),
        m_host_out(c.size, host_memory::pinned),
        m_device_x(c.size),
        m_device_out(c.size),
        m_device_coeffs(m_table.size()),
        m_streams(streams),
        m_done(streams) {}
  void upload(cudaStream_t stream) override {
    std::memcpy(m_host_in.data(), m_x.data(), m_host_in.bytes());
    m_device_coeffs.copy_from_host(m_table, stream);
  }
  void reset(cudaStream_t stream) override {
    m_device_x.fill_bytes(0xFF, stream);
    m_device_out.fill_bytes(0xFF, stream);
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
    std::memset(m_host_out.data(), 0xFF, m_host_out.bytes());
  }
  void launch(cudaStream_t stream) override {
    const std::size_t chunks = m_streams.size();
    const std::size_t chunk = (m_n + chunks - 1) / chunks;
    m_start.record(stream);
    for (std::size_t s = 0; s < chunks; ++s) {
      const std::size_t first = s * chunk;
      if (first >= m_n) break;
      const std::size_t count = std::min(chunk, m_n - first);
      cudaStream_t on = m_streams[s].get();
      CUDALAB_CHECK_CUDA(cudaStreamWaitEvent(on, m_start.get(), 0));
      CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_device_x.data() + first, m_host_in.data() + first,
                                         count * sizeof(float), cudaMemcpyHostToDevice, on));
      mem::launch_coeffs_global(m_device_x.data() + first, m_device_coeffs.data(),
                                m_device_out.data() + first, count, m_block, on);
      CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_host_out.data() + first, m_device_out.data() + first,
                                         count * sizeof(float), cudaMemcpyDeviceToHost, on));
      m_done[s].record(on);
      CUDALAB_CHECK_CUDA(cudaStreamWaitEvent(stream, m_done[s].get(), 0));
    }
  }
  void download(cudaStream_t stream) override {
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
    m_out = m_host_out.to_vector();
  }
  verify_result verify() override {
    return memory_data::verify(memory_output::polynomial, m_table, m_x, m_out);
  }
  launch_shape shape() const override { return {}; }

 private:
  std::size_t m_n;
  unsigned m_block;
  std::vector<float> m_x, m_table, m_out;
  host_buffer m_host_in, m_host_out;
  device_buffer<float> m_device_x, m_device_out, m_device_coeffs;
  std::vector<cuda_stream> m_streams;
  cuda_event m_start;
  std::vector<cuda_event> m_done;
};

class alloc_prepared final : public prepared_variant {
 public:
  explicit alloc_prepared(const launch_config& c) : m_n(c.size) {}
  void upload(cudaStream_t) override {}
  void reset(cudaStream_t) override {}
  // A buffer made and given back: cudaMalloc, then cudaFree at the end of the scope.
  void launch(cudaStream_t) override {
    device_buffer<float> buffer(m_n);
    m_allocated = buffer.data() != nullptr;
  }
  void download(cudaStream_t) override {}
  verify_result verify() override {
    return {m_allocated, m_allocated ? "allocated and freed" : "no buffer was allocated"};
  }
  launch_shape shape() const override { return {}; }

 private:
  std::size_t m_n;
  bool m_allocated = false;
};

}  // namespace

variant make_copy_variant(std::string name, variant_role role, host_memory host,
                          copy_direction direction, std::string lesson) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  v.has_kernels = false;  // a copy: the copy engine, not an SM
  v.device_bytes = one_device_buffer;
  v.ideal = [](const launch_config& c) {
    return work_counts{static_cast<double>(c.size * sizeof(float)), 0};
  };
  v.prepare = [host, direction](const launch_config& c,
                                cudaStream_t) -> std::unique_ptr<prepared_variant> {
    return std::make_unique<copy_prepared>(host, direction, c);
  };
  return v;
}

variant make_pipeline_variant(std::string name, variant_role role, unsigned streams,
                              std::string lesson) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  // Its kernels run on streams of its own, which the counters' capture of the runner's stream
  // does not follow: timed only.
  v.has_kernels = false;
  v.device_bytes = [](const launch_config& c) { return 2 * one_device_buffer(c); };
  v.grid = [](const launch_config& c) {
    return grid_size{(c.size + static_cast<std::size_t>(c.block) - 1) /
                     static_cast<std::size_t>(c.block)};
  };
  // x up and out down: the bus carries 8 bytes an element.
  v.ideal = [](const launch_config& c) {
    return work_counts{8.0 * static_cast<double>(c.size), 0};
  };
  v.prepare = [streams](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    mem::one_thread_each(c.size, static_cast<unsigned>(c.block));
    return std::make_unique<pipeline_prepared>(streams, c);
  };
  return v;
}

variant make_timer_variant(std::string name, variant_role role, bool host_clock,
                           std::string lesson) {
  variant v = make_memory_kernel_variant(
      {std::move(name), role, std::move(lesson), launcher_of(memory_model::kernel::coeffs_global),
       memory_output::polynomial, memory_model::kernel::coeffs_global});
  // The host's clock around launch() alone: the kernel is queued, not finished, when it stops.
  v.timed_on_host = host_clock;
  return v;
}

variant make_alloc_variant() {
  // cudaMalloc and cudaFree return when done: the host's clock sees it.
  variant v = new_host_timed_variant(
      "alloc_free", variant_role::baseline,
      "cudaMalloc + cudaFree of one buffer of the size: compare with a kernel's time");
  v.device_bytes = one_device_buffer;
  v.ideal = [](const launch_config&) { return work_counts{}; };
  v.prepare = [](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    if (c.size == 0) throw usage_error("nothing to allocate: the size must be at least 1");
    return std::make_unique<alloc_prepared>(c);
  };
  return v;
}

}  // namespace cudalab::labs
