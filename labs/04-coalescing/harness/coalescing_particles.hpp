// Lab 04's particle case: one field of a 32-byte record, read from an array of structures
// (particles_aos) and from a structure of arrays (particles_soa).
#pragma once

#include "coalescing/particle_kernels.cuh"

#include "cudalab/lab.hpp"

#include <cstdint>
#include <string>

namespace cudalab::labs {

enum class particle_layout {
  aos,  // naive: an array of 32-byte records, the charge read from each
  soa,  // fixed: one array per field, the charge array read alone
};

// The uniform field both kernels multiply every charge by.
inline constexpr float particle_field_strength = 1.5f;

// Ideal work of both layouts: read the 4-byte charge and write the 4-byte force of every
// particle (8n bytes, n multiplies). The other 28 bytes of a record are not the problem's.
work_counts particle_ideal(std::size_t n);
// Device memory of either layout: the particles (32n bytes) and the force array (4n).
std::size_t particle_device_bytes(std::size_t n);

// The access model's counts from the kernels' own index functions
// (kernels/coalescing/particle_index.cuh): one period of whole blocks and the tail walked,
// warp by warp, the rest counted (cudalab/model/block_classes.hpp).
model::access_counts predict_particles(particle_layout layout, const launch_config& c);
// The same walking every block: the reference the shortcut is tested against.
model::access_counts predict_particles_every_block(particle_layout layout, const launch_config& c);
// The warp instructions predict_particles builds for `c` (its cost, for the model budget).
double particle_model_cost(particle_layout layout, const launch_config& c);

variant make_particle_variant(particle_layout layout, std::string name, variant_role role,
                              std::string lesson);

}  // namespace cudalab::labs
