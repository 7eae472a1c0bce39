// Lab 04 kernels: one field of a particle record, read from an array of structures and from a
// structure of arrays.
//
// Both kernels compute the force of a uniform field on every particle's charge and write it to
// `force`: read 4 bytes, write 4 bytes a particle.
//
//   particles_aos_kernel  the particles are 32-byte records (particle_index.cuh). Lane k reads
//                         the charge at byte 32k + 28: 32 lanes, 32 sectors, 4 useful bytes in
//                         each. Nothing else of the record is read, so no later load reuses
//                         the other 28 bytes of each sector that L1 and L2 fetched: DRAM moves
//                         every record whole, 8 times the bytes the kernel uses.
//   particles_soa_kernel  the same particles, one array per field. A warp reads 32 consecutive
//                         charges, 128 bytes: 4 sectors a request, every byte used; the arrays
//                         of the seven other fields are never touched.
// The store of force[i] is coalesced in both (4 sectors a request).
//
// SASS (cuobjdump -sass of the release build, sm_90, nvcc 13.0): each kernel is one LDG.E of
// the charge (at offset 0x1c of the record in the AoS kernel), one FMUL and one STG.E. The
// lab's model (labs/04-coalescing/harness/particle_model.cpp) records exactly these two accesses.
#include "coalescing/coalescing_index.cuh"
#include "coalescing/particle_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::coalescing {

__global__ void particles_aos_kernel(const particle* particles, float* force, std::size_t n,
                                     float field) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) force[i] = field_force(particles[i].charge, field);
}

__global__ void particles_soa_kernel(particle_arrays particles, float* force, std::size_t n,
                                     float field) {
  const std::size_t i = element_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) force[i] = field_force(particles.charge[soa_field_float(i)], field);
}

launch_dims launch_particles_aos(const particle* particles, float* force, std::size_t n,
                                 float field, unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  particles_aos_kernel<<<d.grid, d.block, 0, stream>>>(particles, force, n, field);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_particles_soa(particle_arrays particles, float* force, std::size_t n,
                                 float field, unsigned block, cudaStream_t stream) {
  const launch_dims d = one_thread_each(n, block);
  particles_soa_kernel<<<d.grid, d.block, 0, stream>>>(particles, force, n, field);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::coalescing
