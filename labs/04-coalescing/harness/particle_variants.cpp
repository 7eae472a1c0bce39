// Lab 04's particle variants: the same particles in two layouts, the same force computed.
//
// The kernels read only the charge, so only the charges are pseudo-random (fixed seed per size,
// in [0.5, 1.5), never zero): made on the host, uploaded as 4n bytes. The seven other fields
// are filled on the device, each with its own byte pattern (0x40404040 = 3.0039 for x up to
// 0x46464646 = 12689.6 for mass): never zero and never a possible charge, so a kernel that
// reads the wrong field fails verification. Building the 32n bytes of records on the host
// instead would cost more time than the GPU work at the lab's default size.
// The force array is poisoned with 0xFF bytes (NaN) before each launch; the GPU's one float
// multiply must equal the CPU's bit for bit.
#include "coalescing_particles.hpp"
#include "coalescing_verify.hpp"

#include "coalescing/particle_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace cudalab::labs {
namespace {

using coalescing::particle;
using coalescing::particle_field;
using coalescing::particle_fields;

constexpr unsigned charge_field = static_cast<unsigned>(particle_field::charge);

std::uint64_t seed_for(std::size_t n) { return 0x0400'9a27'0000'0000ull ^ n; }

// The byte repeated through every float of field f (not the charge).
int filler_byte(unsigned field) { return 0x40 + static_cast<int>(field); }

// What the two layouts share: the charges on the host, the force array, verification.
class particles_prepared : public prepared_variant {
 public:
  explicit particles_prepared(const launch_config& c)
      : m_config(c),
        m_n(c.size),
        m_charges(random_floats(c.size, seed_for(c.size))),
        m_force(c.size) {}

  void reset(cudaStream_t stream) override { m_force.fill_bytes(0xFF, stream); }
  void download(cudaStream_t stream) override { m_force.copy_to_host(m_host_force, stream); }
  verify_result verify() override {
    return compare_exact(
        m_host_force.data(), m_host_force.size(),
        [&](std::size_t i) {
          return coalescing::field_force(m_charges[i], particle_field_strength);
        },
        "force (" + std::to_string(m_n) + " particles)");
  }
  launch_shape shape() const override {
    const coalescing::launch_dims d =
        coalescing::one_thread_each(m_n, static_cast<unsigned>(m_config.block));
    return {d.grid, 1, d.block, 1, m_n};
  }

 protected:
  unsigned block() const { return static_cast<unsigned>(m_config.block); }

  launch_config m_config;
  std::size_t m_n;
  std::vector<float> m_charges;
  device_buffer<float> m_force;

 private:
  std::vector<float> m_host_force;
};

// particles_aos: n records of 32 bytes.
class particles_aos_prepared final : public particles_prepared {
 public:
  explicit particles_aos_prepared(const launch_config& c)
      : particles_prepared(c), m_records(c.size) {}

  void upload(cudaStream_t stream) override {
    char* records = reinterpret_cast<char*>(m_records.data());
    // Each field is a column of the records: n floats, 4 bytes wide, 32 bytes apart.
    for (unsigned f = 0; f < particle_fields; ++f)
      if (f != charge_field)
        CUDALAB_CHECK_CUDA(cudaMemset2DAsync(records + f * sizeof(float), sizeof(particle),
                                             filler_byte(f), sizeof(float), m_n, stream));
    // The charges go up packed and are scattered into their column by one pitched copy.
    device_buffer<float> packed(m_n);
    packed.copy_from_host(m_charges, stream);
    CUDALAB_CHECK_CUDA(cudaMemcpy2DAsync(records + charge_field * sizeof(float), sizeof(particle),
                                         packed.data(), sizeof(float), sizeof(float), m_n,
                                         cudaMemcpyDeviceToDevice, stream));
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));  // before `packed` is freed
  }
  void launch(cudaStream_t stream) override {
    coalescing::launch_particles_aos(m_records.data(), m_force.data(), m_n, particle_field_strength,
                                     block(), stream);
  }

 private:
  device_buffer<particle> m_records;
};

// particles_soa: eight arrays of n floats, one per field.
class particles_soa_prepared final : public particles_prepared {
 public:
  explicit particles_soa_prepared(const launch_config& c) : particles_prepared(c) {
    for (auto& field : m_fields) field = device_buffer<float>(m_n);
  }

  void upload(cudaStream_t stream) override {
    for (unsigned f = 0; f < particle_fields; ++f)
      if (f != charge_field) m_fields[f].fill_bytes(filler_byte(f), stream);
    m_fields[charge_field].copy_from_host(m_charges, stream);
  }
  void launch(cudaStream_t stream) override {
    const coalescing::particle_arrays arrays{
        field(particle_field::x),    field(particle_field::y),     field(particle_field::z),
        field(particle_field::vx),   field(particle_field::vy),    field(particle_field::vz),
        field(particle_field::mass), field(particle_field::charge)};
    coalescing::launch_particles_soa(arrays, m_force.data(), m_n, particle_field_strength, block(),
                                     stream);
  }

 private:
  const float* field(particle_field f) const { return m_fields[static_cast<unsigned>(f)].data(); }

  std::array<device_buffer<float>, particle_fields> m_fields;
};

}  // namespace

work_counts particle_ideal(std::size_t n) {
  const double particles = static_cast<double>(n);
  return work_counts{8.0 * particles, particles};
}

std::size_t particle_device_bytes(std::size_t n) { return (sizeof(particle) + sizeof(float)) * n; }

variant make_particle_variant(particle_layout layout, std::string name, variant_role role,
                              std::string lesson) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  v.device_bytes = [](const launch_config& c) { return particle_device_bytes(c.size); };
  v.ideal = [](const launch_config& c) { return particle_ideal(c.size); };
  v.predict = [layout](const launch_config& c) { return predict_particles(layout, c); };
  v.model_cost = [layout](const launch_config& c) { return particle_model_cost(layout, c); };
  v.grid = [](const launch_config& c) {
    return grid_size{(c.size + static_cast<std::uint64_t>(c.block) - 1) / c.block};
  };
  v.prepare = [layout](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    if (c.size == 0) throw usage_error("nothing to launch: the size must be at least 1");
    if (layout == particle_layout::aos) return std::make_unique<particles_aos_prepared>(c);
    return std::make_unique<particles_soa_prepared>(c);
  };
  return v;
}

}  // namespace cudalab::labs
