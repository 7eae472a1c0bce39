// The particle record of lab 04 and its index arithmetic, shared by the kernels (device) and
// the access model (host).
//
// A particle is 8 floats (position, velocity, mass, charge): 32 bytes, one sector. The
// particle kernels read one field of it, the charge. Stored as an array of structures, lane k
// of a warp reads 4 bytes at 32k + 28: every lane has a sector of its own and uses 4 bytes of
// its 32. Stored as a structure of arrays, the charges are one array of floats and a warp reads
// 128 consecutive bytes. The lab's predictions (labs/04-coalescing/harness/particle_model.cpp) call
// these functions for every lane, so the model and the kernels agree on every address.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::coalescing {

struct particle {
  float x, y, z;     // position
  float vx, vy, vz;  // velocity
  float mass;
  float charge;
};

// The fields of a record, in memory order.
enum class particle_field : unsigned { x, y, z, vx, vy, vz, mass, charge };
inline constexpr unsigned particle_fields = 8;

static_assert(sizeof(particle) == particle_fields * sizeof(float),
              "a particle must be 8 packed floats: one 32-byte sector");
static_assert(offsetof(particle, charge) ==
                  static_cast<unsigned>(particle_field::charge) * sizeof(float),
              "particle_field must follow the order of the members of particle");

// Array of structures: field f of particle i is float 8i + f of the array seen as floats.
// Consecutive lanes (i, i+1) touch floats 32 bytes apart: one sector each.
__host__ __device__ inline std::size_t aos_field_float(std::size_t i, particle_field f) {
  return std::size_t{particle_fields} * i + static_cast<unsigned>(f);
}

// Structure of arrays: field f of particle i is element i of field f's own array.
__host__ __device__ inline std::size_t soa_field_float(std::size_t i) { return i; }

// The work both kernels do for one particle: the force a uniform electric field exerts on its
// charge (F = qE, one component). One float multiply, so the GPU matches the CPU bit for bit.
__host__ __device__ inline float field_force(float charge, float field) { return charge * field; }

}  // namespace cudalab::coalescing
