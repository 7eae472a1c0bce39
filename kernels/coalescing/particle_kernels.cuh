// Lab 04's particle launchers: each checks its launch shape (one_thread_each: 1..1024 threads a
// block, at least one particle, a grid that fits), launches on `stream` and checks the launch.
//
// Both compute force[i] = charge of particle i times `field` for i < n; they differ only in
// where the charges live.
#pragma once

#include "coalescing/coalescing_kernels.cuh"
#include "coalescing/particle_index.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cudalab::coalescing {

// The same particles as a structure of arrays: one array of n floats per field.
struct particle_arrays {
  const float* x = nullptr;
  const float* y = nullptr;
  const float* z = nullptr;
  const float* vx = nullptr;
  const float* vy = nullptr;
  const float* vz = nullptr;
  const float* mass = nullptr;
  const float* charge = nullptr;
};

// NAIVE: force[i] = particles[i].charge * field. One 4-byte load a thread from records 32 bytes
// apart: 32 sectors a load request, 4 useful bytes in each.
launch_dims launch_particles_aos(const particle* particles, float* force, std::size_t n,
                                 float field, unsigned block, cudaStream_t stream);
// FIXED: force[i] = particles.charge[i] * field. The charges are contiguous: 4 sectors a
// request, every byte used; the other seven arrays are never touched.
launch_dims launch_particles_soa(particle_arrays particles, float* force, std::size_t n,
                                 float field, unsigned block, cudaStream_t stream);

}  // namespace cudalab::coalescing
