// Lab 04's float3 family: the same numbers, the same update, four layouts and a copy roof.
//
// Every float3 variant starts from the same pseudo-random numbers (fixed seed per size, never
// zero), adds float3_update_value to x, y and z in place and copies the result to an output
// poisoned with 0xFF bytes (NaN) before each launch. Because the update is in place, reset()
// restores the input from a pristine device copy, so every timed launch does the same work.
// The GPU result must equal the CPU's float add bit for bit.
#include "coalescing_variants.hpp"
#include "coalescing_verify.hpp"

#include "coalescing/coalescing_index.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cudalab::labs {
namespace {

using coalescing::add_value;
using coalescing::float3_components;

std::uint64_t seed_for(std::size_t n) { return 0x0400'3f3f'0000'0000ull ^ n; }

// x, y, z of n numbers, interleaved (AoS order).
std::vector<float> float3_inputs(std::size_t n) {
  return random_floats(std::size_t{float3_components} * n, seed_for(n));
}

launch_shape shape_of(std::size_t threads, const launch_config& c) {
  const coalescing::launch_dims d =
      coalescing::one_thread_each(threads, static_cast<unsigned>(c.block));
  return {d.grid, 1, d.block, 1, threads};
}

// A buffer updated in place: reset() restores it from its pristine twin.
struct in_place_buffer {
  explicit in_place_buffer(std::size_t count) : pristine(count), live(count) {}
  void restore(cudaStream_t stream) { live.copy_from_device(pristine, stream); }
  device_buffer<float> pristine, live;
};

verify_result check_float3_stream(const std::vector<float>& got, const std::vector<float>& in,
                                  std::size_t stride, std::size_t count, const std::string& what) {
  // got[i * stride + c] against in[i * stride + c] + v for c < 3 (stride 4 skips float4's w,
  // which is checked separately).
  return compare_exact(
      got.data(), got.size(),
      [&](std::size_t k) {
        return k % stride < float3_components ? add_value(in[k], float3_update_value) : in[k];
      },
      what + " (" + std::to_string(count) + " numbers)");
}

// The AoS layouts: the numbers interleaved, `stride` floats a number (3: aos_float3,
// aos_float3_staged and the exercise; 4: aos_float4, whose fourth float must come back
// unchanged), updated in place and copied out by `launch`.
class interleaved_prepared final : public prepared_variant {
 public:
  using launcher = std::function<void(float* data, float* out, cudaStream_t stream)>;

  interleaved_prepared(const launch_config& c, std::size_t stride, std::vector<float> host_in,
                       launcher launch, std::string passed)
      : m_config(c),
        m_n(c.size),
        m_stride(stride),
        m_launch(std::move(launch)),
        m_passed(std::move(passed)),
        m_host_in(std::move(host_in)),
        m_data(m_host_in.size()),
        m_out(m_host_in.size()) {}

  void upload(cudaStream_t stream) override { m_data.pristine.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override {
    m_data.restore(stream);
    m_out.fill_bytes(0xFF, stream);
  }
  void launch(cudaStream_t stream) override { m_launch(m_data.live.data(), m_out.data(), stream); }
  void download(cudaStream_t stream) override {
    m_data.live.copy_to_host(m_host_data, stream);
    m_out.copy_to_host(m_host_out, stream);
  }
  verify_result verify() override {
    return first_failure(
        {check_float3_stream(m_host_data, m_host_in, m_stride, m_n, "data (in place)"),
         check_float3_stream(m_host_out, m_host_in, m_stride, m_n, "out")},
        m_passed);
  }
  launch_shape shape() const override { return shape_of(m_n, m_config); }

 private:
  launch_config m_config;
  std::size_t m_n, m_stride;
  launcher m_launch;
  std::string m_passed;
  std::vector<float> m_host_in, m_host_data, m_host_out;
  in_place_buffer m_data;
  device_buffer<float> m_out;
};

// The same numbers with a fourth float of padding a number (random).
std::vector<float> padded_to_float4(const std::vector<float>& xyz) {
  const std::size_t n = xyz.size() / 3;
  const std::vector<float> w = random_floats(n, ~seed_for(n));
  std::vector<float> out(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (unsigned c = 0; c < 3; ++c) out[4 * i + c] = xyz[3 * i + c];
    out[4 * i + 3] = w[i];
  }
  return out;
}

std::unique_ptr<prepared_variant> prepare_float3_aos(const launch_config& c,
                                                     float3_launcher launcher) {
  const auto block = static_cast<unsigned>(c.block);
  const std::size_t n = c.size;
  return std::make_unique<interleaved_prepared>(
      c, 3, float3_inputs(n),
      [=](float* data, float* out, cudaStream_t stream) {
        launcher(reinterpret_cast<float3*>(data), reinterpret_cast<float3*>(out), n,
                 float3_update_value, block, stream);
      },
      "max abs err 0 (exact), in place and out");
}

std::unique_ptr<prepared_variant> prepare_float4(const launch_config& c) {
  const auto block = static_cast<unsigned>(c.block);
  const std::size_t n = c.size;
  return std::make_unique<interleaved_prepared>(
      c, 4, padded_to_float4(float3_inputs(n)),
      [=](float* data, float* out, cudaStream_t stream) {
        coalescing::launch_aos_float4(reinterpret_cast<float4*>(data),
                                      reinterpret_cast<float4*>(out), n, float3_update_value, block,
                                      stream);
      },
      "max abs err 0 (exact), in place and out; w unchanged");
}

// soa: x, y and z in three arrays (six allocations with the outputs, three pristine copies).
class soa_prepared final : public prepared_variant {
 public:
  explicit soa_prepared(const launch_config& c)
      : m_config(c),
        m_n(c.size),
        m_data{in_place_buffer(m_n), in_place_buffer(m_n), in_place_buffer(m_n)},
        m_out{device_buffer<float>(m_n), device_buffer<float>(m_n), device_buffer<float>(m_n)} {
    const std::vector<float> xyz = float3_inputs(m_n);
    for (unsigned comp = 0; comp < 3; ++comp) {
      m_host_in[comp].resize(m_n);
      for (std::size_t i = 0; i < m_n; ++i) m_host_in[comp][i] = xyz[3 * i + comp];
    }
  }

  void upload(cudaStream_t stream) override {
    for (unsigned comp = 0; comp < 3; ++comp)
      m_data[comp].pristine.copy_from_host(m_host_in[comp], stream);
  }
  void reset(cudaStream_t stream) override {
    for (unsigned comp = 0; comp < 3; ++comp) {
      m_data[comp].restore(stream);
      m_out[comp].fill_bytes(0xFF, stream);
    }
  }
  void launch(cudaStream_t stream) override {
    coalescing::launch_soa_float3(
        {m_data[0].live.data(), m_data[1].live.data(), m_data[2].live.data()},
        {m_out[0].data(), m_out[1].data(), m_out[2].data()}, m_n, float3_update_value,
        static_cast<unsigned>(m_config.block), stream);
  }
  void download(cudaStream_t stream) override {
    for (unsigned comp = 0; comp < 3; ++comp) {
      m_data[comp].live.copy_to_host(m_host_data[comp], stream);
      m_out[comp].copy_to_host(m_host_out[comp], stream);
    }
  }
  verify_result verify() override {
    static const char* names[] = {"x", "y", "z"};
    for (unsigned comp = 0; comp < 3; ++comp) {
      const auto& in = m_host_in[comp];
      auto expected = [&](std::size_t i) { return add_value(in[i], float3_update_value); };
      for (const auto* got : {&m_host_data[comp], &m_host_out[comp]}) {
        const std::string what =
            std::string(got == &m_host_out[comp] ? "out." : "data.") + names[comp];
        verify_result r = compare_exact(got->data(), got->size(), expected, what);
        if (!r.ok) return r;
      }
    }
    return {true, "max abs err 0 (exact), in place and out"};
  }
  launch_shape shape() const override { return shape_of(m_n, m_config); }

 private:
  launch_config m_config;
  std::size_t m_n;
  std::array<std::vector<float>, 3> m_host_in, m_host_data, m_host_out;
  std::array<in_place_buffer, 3> m_data;
  std::array<device_buffer<float>, 3> m_out;
};

// memcpy_d2d: cudaMemcpyAsync of the float3 array's bytes, the roof for a kernel that reads and
// writes them once (it moves 24 bytes a number where the float3 variants move 36).
class memcpy_prepared final : public prepared_variant {
 public:
  explicit memcpy_prepared(const launch_config& c)
      : m_n(c.size),
        m_host_in(float3_inputs(c.size)),
        m_src(m_host_in.size()),
        m_dst(m_host_in.size()) {}

  void upload(cudaStream_t stream) override { m_src.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override { m_dst.fill_bytes(0xFF, stream); }
  void launch(cudaStream_t stream) override {
    CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_dst.data(), m_src.data(), m_src.bytes(),
                                       cudaMemcpyDeviceToDevice, stream));
  }
  void download(cudaStream_t stream) override { m_dst.copy_to_host(m_host_out, stream); }
  verify_result verify() override {
    return compare_exact(
        m_host_out.data(), m_host_out.size(), [&](std::size_t i) { return m_host_in[i]; }, "copy");
  }
  launch_shape shape() const override { return {0, 1, 0, 1, m_n}; }

 private:
  std::size_t m_n;
  std::vector<float> m_host_in, m_host_out;
  device_buffer<float> m_src, m_dst;
};

}  // namespace

work_counts float3_ideal(std::size_t n) {
  const double numbers = static_cast<double>(n);
  return work_counts{36.0 * numbers, 3.0 * numbers};
}

std::uint64_t float3_ideal_ld_sectors(std::size_t n) {
  return (std::uint64_t{12} * n + model::sector_bytes - 1) / model::sector_bytes;
}
std::uint64_t float3_ideal_st_sectors(std::size_t n) { return 2 * float3_ideal_ld_sectors(n); }

variant make_float3_aos_variant(std::string name, variant_role role, std::string lesson,
                                float3_launcher launcher) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  v.device_bytes = [](const launch_config& c) { return 3 * 12 * c.size; };
  v.ideal = [](const launch_config& c) { return float3_ideal(c.size); };
  v.prepare = [launcher](const launch_config& c,
                         cudaStream_t) -> std::unique_ptr<prepared_variant> {
    return prepare_float3_aos(c, launcher);
  };
  return v;
}

variant make_memcpy_variant() {
  variant v = new_variant("memcpy_d2d", variant_role::baseline,
                          "cudaMemcpyAsync of the float3 array's bytes: the practical roof (reads "
                          "and writes each byte once)");
  v.has_kernels = false;
  v.device_bytes = [](const launch_config& c) { return 2 * 12 * c.size; };
  v.ideal = [](const launch_config& c) {
    return work_counts{24.0 * static_cast<double>(c.size), 0};
  };
  v.prepare = [](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    if (c.size == 0) throw usage_error("nothing to copy: the size must be at least 1");
    return std::make_unique<memcpy_prepared>(c);
  };
  return v;
}

std::unique_ptr<prepared_variant> prepare_float3_layout(coalescing_kind kind,
                                                        const launch_config& c) {
  if (kind == coalescing_kind::aos_float4) return prepare_float4(c);
  return std::make_unique<soa_prepared>(c);
}

}  // namespace cudalab::labs
